declare const brand: unique symbol;

/** A nominal string type: `Brand<string, 'RunId'>` is not assignable from a plain string. */
export type Brand<T, B extends string> = T & { readonly [brand]: B };

/** Identifies one run of an agent (one `prompt` or `continue` until it ends). */
export type RunId = Brand<string, 'RunId'>;

/**
 * Where an agent sits in its actor tree: `lead`, `lead/researcher#2`.
 * Segments are agent names, optionally suffixed with `#n` to tell siblings apart.
 */
export type AgentPath = Brand<string, 'AgentPath'>;

const PATH_SEGMENT = /^[A-Za-z0-9_.-]+(#[0-9]+)?$/;
/** A whole path of such segments: checked in one pass, without splitting it (an agent is made per child). */
const PATH = /^[A-Za-z0-9_.-]+(?:#[0-9]+)?(?:\/[A-Za-z0-9_.-]+(?:#[0-9]+)?)*$/;

let runCounter = 0;

/** Creates a run id that is unique within this process and sortable by creation time. */
export function createRunId(now: number = Date.now()): RunId {
  runCounter = (runCounter + 1) % 0x1000000;
  return uniqueId('run_', now, runCounter) as RunId;
}

/**
 * `prefix`, the time and the counter in base 36, and a random part: joined, not concatenated, so
 * the id is one flat string. A template literal made it a tree of five strings (about 140 bytes
 * against 40), which every run, waiting or hibernated, kept for its id and its session's.
 */
function uniqueId(prefix: string, now: number, counter: number): string {
  return [prefix, now.toString(36), counter.toString(36).padStart(5, '0'), Math.floor(Math.random() * 0x100000000).toString(36)].join('');
}

let sessionCounter = 0;

/** Creates a session id (`ses_…`): unique within this process and sortable by creation time, like a run id. */
export function createSessionId(now: number = Date.now()): string {
  sessionCounter = (sessionCounter + 1) % 0x1000000;
  return uniqueId('ses_', now, sessionCounter);
}

/** Parses a run id received from outside (a file, the CLI, a message); throws on an empty string. */
export function parseRunId(value: string): RunId {
  if (value.length === 0 || /\s/.test(value)) throw new TypeError(`invalid run id: ${JSON.stringify(value)}`);
  return value as RunId;
}

/** Parses an agent path such as `lead/researcher#2`; throws a TypeError naming the bad segment. */
export function parseAgentPath(value: string): AgentPath {
  if (PATH.test(value)) return value as AgentPath;
  // Bad: the segments are looked at one by one only to name the first bad one.
  for (const segment of value.split('/')) {
    if (!PATH_SEGMENT.test(segment)) {
      throw new TypeError(`invalid agent path ${JSON.stringify(value)}: bad segment ${JSON.stringify(segment)}`);
    }
  }
  return value as AgentPath;
}

/**
 * Formats a child's path below its parent: `childPath('lead', 'researcher', 2)` is `lead/researcher#2`.
 * Only the new segment is checked (the parent is an `AgentPath` already); throws a TypeError naming it when bad.
 */
export function childPath(parent: AgentPath, name: string, index?: number): AgentPath {
  const segment = index === undefined ? name : `${name}#${index}`;
  const path = `${parent}/${segment}`;
  if (!PATH_SEGMENT.test(segment)) throw new TypeError(`invalid agent path ${JSON.stringify(path)}: bad segment ${JSON.stringify(segment)}`);
  return path as AgentPath;
}

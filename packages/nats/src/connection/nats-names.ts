import type { AgentPath, RunId } from '@troupe/core';

/** The namespace used when none is given: subjects start with `troupe.default.`. */
export const DEFAULT_NAMESPACE = 'default';

/** A namespace, and a string that is its own {@link keyToken}: letters, digits, `_` and `-`. */
const SAFE_TOKEN = /^[A-Za-z0-9_-]+$/;

/**
 * Every subject, stream, consumer and KV bucket one deployment uses, under its namespace, so
 * several deployments share one NATS without seeing each other's work. The README's table lists
 * them; this is the one place they are spelled.
 */
export interface NatsNames {
  namespace: string;
  /**
   * Work queue of tasks, one subject per graph and agent (`troupe.<ns>.task.<graph>.<agent>`, where
   * `<graph>` is the graph's fingerprint, `graphHash`): two graphs with an agent of the same name
   * share a namespace without taking each other's tasks.
   */
  tasksStream: string;
  taskSubject(graph: string, agent: string): string;
  /** The durable pull consumer every worker hosting `agent` of graph `graph` competes on. */
  taskConsumer(graph: string, agent: string): string;
  /** Tasks that failed `maxDeliver` times (`troupe.<ns>.dead.<agent>`), kept for inspection. */
  deadStream: string;
  deadSubject(agent: string): string;
  /** Every event of every actor of a run (`troupe.<ns>.run.<runId>.events`), kept for replay. */
  eventsStream: string;
  eventsSubject(runId: RunId): string;
  /**
   * A subject of the events stream outside every run (`troupe.<ns>.events-flush`): a run store
   * publishes an acknowledged marker there to learn that the stream has stored every event sent
   * before it. Rolled up, so the stream keeps one.
   */
  eventsFlushSubject: string;
  /** Requests to the live actor at `path` (abort, steer, reply, approve…), answered by its host. */
  controlSubject(runId: RunId, path: AgentPath): string;
  /** KV buckets: run records, actor records (queued/running/waiting/ended + result), checkpoint heads, appended messages, delegations. */
  runsBucket: string;
  actorsBucket: string;
  headsBucket: string;
  messagesBucket: string;
  childrenBucket: string;
  /** The NATS service workers register as (`@nats-io/services`). */
  serviceName: string;
}

/** The names of namespace `namespace`; throws a TypeError for a namespace NATS cannot carry. */
export function natsNames(namespace: string = DEFAULT_NAMESPACE): NatsNames {
  if (!SAFE_TOKEN.test(namespace)) throw new TypeError(`invalid NATS namespace ${JSON.stringify(namespace)}: use letters, digits, "_" and "-"`);
  const prefix = `troupe.${namespace}`;
  const bucket = (name: string): string => `troupe_${namespace}_${name}`;
  return {
    namespace,
    tasksStream: `TROUPE_${namespace}_TASKS`,
    taskSubject: (graph, agent) => `${prefix}.task.${keyToken(graph)}.${keyToken(agent)}`,
    taskConsumer: (graph, agent) => `tasks_${keyToken(graph)}_${keyToken(agent)}`,
    deadStream: `TROUPE_${namespace}_DEAD`,
    deadSubject: (agent) => `${prefix}.dead.${keyToken(agent)}`,
    eventsStream: `TROUPE_${namespace}_EVENTS`,
    eventsSubject: (runId) => `${prefix}.run.${keyToken(runId)}.events`,
    eventsFlushSubject: `${prefix}.events-flush`,
    controlSubject: (runId, path) => `${prefix}.run.${keyToken(runId)}.control.${keyToken(path)}`,
    runsBucket: bucket('runs'),
    actorsBucket: bucket('actors'),
    headsBucket: bucket('heads'),
    messagesBucket: bucket('messages'),
    childrenBucket: bucket('children'),
    serviceName: 'troupe_worker',
  };
}

/**
 * One subject token / KV key token for any string: letters, digits, `_` and `-` stay, every other
 * character becomes `=` and its code in two hex digits (`lead/researcher#2` → `lead=2Fresearcher=232`),
 * or `==` and four for a code above 255.
 * Reversible with {@link fromKeyToken}, so keys can be listed and read back.
 */
export function keyToken(value: string): string {
  if (value.length === 0) return '=';
  // Most tokens (run ids, agent names, namespaces) need no escape: tested without a replacement closure.
  if (SAFE_TOKEN.test(value)) return value;
  return value.replace(/[^A-Za-z0-9_-]/g, (c) => {
    const code = c.charCodeAt(0);
    return code > 0xff ? `==${hex(code, 4)}` : `=${hex(code, 2)}`;
  });
}

/** The string {@link keyToken} encoded. */
export function fromKeyToken(token: string): string {
  if (token === '=') return '';
  return token.replace(/==([0-9A-F]{4})|=([0-9A-F]{2})/g, (_, wide: string | undefined, narrow: string | undefined) =>
    String.fromCharCode(Number.parseInt(wide ?? narrow ?? '', 16)),
  );
}

function hex(code: number, digits: number): string {
  return code.toString(16).toUpperCase().padStart(digits, '0');
}

/** A KV key made of several tokens (`<run>.<path>`). */
export function kvKey(...parts: string[]): string {
  if (parts.length === 0) return '';
  let key = keyToken(parts[0] ?? '');
  for (let i = 1; i < parts.length; i++) key += `.${keyToken(parts[i] ?? '')}`;
  return key;
}

/**
 * A property-based fuzz test of the graph loader (fast-check, a fixed seed, 300 cases): mutations
 * of the example graphs in apps/examples, the config test fixtures and the valid graphs of the
 * config tests (lines deleted or duplicated, wrong types, deep nesting, alias bombs, huge strings,
 * binary bytes) are written to a real file and loaded by `loadGraphFile` in a child process. The
 * loader returns a graph or throws a GraphFileError, nothing else (the child also dies on an
 * unhandled rejection); no case runs past a bound (the child is killed then, so a synchronous loop
 * is caught too); every problem in the file has a line and a column inside it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GraphProblem } from '../../src/index.js';
import { VALID_GRAPHS } from './graph-corpus.js';
import { applyMutations, graphMutation } from './graph-mutation.js';

const SEED = 20_261_126;
const NUM_RUNS = 300;
/** Far above what a case takes (milliseconds); only a hang reaches it, even on a loaded machine. */
const CASE_BOUND_MS = 10_000;

const runtimeEntry = fileURLToPath(new URL('../../dist/index.js', import.meta.url));
const examples = fileURLToPath(new URL('../../../../apps/examples/', import.meta.url));
const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));

const yamlIn = (dir: string): string[] =>
  readdirSync(dir)
    .filter((name) => name.endsWith('.yaml'))
    .map((name) => readFileSync(join(dir, name), 'utf8'));
const CORPUS = [...yamlIn(examples), ...yamlIn(fixtures), ...VALID_GRAPHS.map((graph) => graph.text)];

/** What the child says about one load. */
type Outcome =
  | { outcome: 'graph' }
  | { outcome: 'error'; graphFileError: boolean; name: string; message: string; problems: GraphProblem[] }
  | { outcome: 'hang' }
  | { outcome: 'died'; code: number | null; signal: string | null };

/** Loads graph files in a child process, one at a time, killing and replacing it when a load hangs. */
class Loader {
  #child: ChildProcess | undefined;
  #ready: Promise<void> | undefined;

  async load(file: string): Promise<Outcome> {
    const child = await this.#start();
    return new Promise<Outcome>((resolve) => {
      const done = (outcome: Outcome): void => {
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(outcome);
      };
      const onMessage = (message: Outcome): void => done(message);
      const onExit = (code: number | null, signal: string | null): void => {
        this.#child = undefined;
        done({ outcome: 'died', code, signal });
      };
      const timer = setTimeout(() => {
        this.stop();
        done({ outcome: 'hang' });
      }, CASE_BOUND_MS);
      child.on('message', onMessage);
      child.once('exit', onExit);
      child.send({ file });
    });
  }

  stop(): void {
    this.#child?.kill('SIGKILL');
    this.#child = undefined;
  }

  async #start(): Promise<ChildProcess> {
    if (this.#child !== undefined && this.#ready !== undefined) {
      await this.#ready;
      return this.#child;
    }
    const script = `
      const { loadGraphFile, GraphFileError } = await import(${JSON.stringify(runtimeEntry)});
      process.on('message', async ({ file }) => {
        try {
          await loadGraphFile(file, { env: {}, onMissingKey: () => undefined });
          process.send({ outcome: 'graph' });
        } catch (error) {
          const graphFileError = error instanceof GraphFileError;
          process.send({
            outcome: 'error',
            graphFileError,
            name: String(error?.name),
            message: String(error?.stack ?? error).slice(0, 2000),
            problems: graphFileError ? error.problems : [],
          });
        }
      });
      process.send('ready');`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.#child = child;
    this.#ready = new Promise<void>((resolve, reject) => {
      child.once('message', () => resolve());
      child.once('exit', (code) => reject(new Error(`the loader child exited (${code}) before it was ready`)));
    });
    await this.#ready;
    return child;
  }
}

/** The problems of `outcome` that are not where a graph file may be and say so. */
function misplaced(text: string, file: string, problems: readonly GraphProblem[]): GraphProblem[] {
  const lines = text.split('\n');
  return problems.filter((problem) => {
    if (problem.file !== file) return false;
    const line = lines[problem.line - 1];
    return !(Number.isInteger(problem.line) && Number.isInteger(problem.col) && line !== undefined && problem.col >= 1 && problem.col <= line.length + 1);
  });
}

let dir: string;
const loader = new Loader();

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'troupe-graph-fuzz-'));
  // The fixtures' scriptFile, so the assistant graph still finds it next to the mutated copy.
  copyFileSync(join(fixtures, 'steps.yaml'), join(dir, 'steps.yaml'));
});

afterAll(() => {
  loader.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('the graph loader under fuzzed graph files', () => {
  it(`returns a graph or a GraphFileError with positions inside the file, within a bound (seed ${SEED}, ${NUM_RUNS} cases)`, async () => {
    expect(CORPUS.length).toBeGreaterThan(10);
    let index = 0;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...CORPUS), fc.array(graphMutation(), { minLength: 1, maxLength: 3 }), async (base, mutations) => {
        const bytes = applyMutations(base, mutations);
        const file = join(dir, `case-${index++}.yaml`);
        writeFileSync(file, bytes);
        const outcome = await loader.load(file);
        rmSync(file);
        if (outcome.outcome === 'graph') return;
        if (outcome.outcome !== 'error')
          throw new Error(`the loader ${outcome.outcome === 'hang' ? `ran past ${CASE_BOUND_MS} ms` : `process died (${JSON.stringify(outcome)})`}`);
        if (!outcome.graphFileError) throw new Error(`the loader threw ${outcome.name}, not a GraphFileError: ${outcome.message}`);
        expect(outcome.problems.length).toBeGreaterThan(0);
        const text = Buffer.from(bytes).toString('utf8');
        expect(misplaced(text, file, outcome.problems)).toEqual([]);
      }),
      { seed: SEED, numRuns: NUM_RUNS, endOnFailure: true },
    );
  }, 600_000);
});

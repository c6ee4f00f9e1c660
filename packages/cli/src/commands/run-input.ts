import { decodeText, describeReadError, readCheckedTextFile, TextFileError } from '@troupe/runtime';
import type { CliIo } from '../cli-io.js';

/** The largest input `troupe run` takes from a file or standard input: 4 MB, more than any model's context window holds. */
export const INPUT_MAX_BYTES = 4 * 1024 * 1024;

/** Where `troupe run` may find its input: at most one of these, or else standard input. */
export interface InputSources {
  /** The positional argument after the graph file. */
  argument?: string | undefined;
  /** `--input <text>`. */
  input?: string | undefined;
  /** `--input-file <path>`. */
  inputFile?: string | undefined;
}

/** The input, or the one line that says why there is none (the command exits 2). */
export type InputResult = { input: string } | { problem: string } | { interrupted: true };

const HOW =
  'give it as an argument (troupe run <file> "your question"), with --input <text> or --input-file <path>, or on standard input (echo "your question" | troupe run <file>)';

/**
 * The user message of `troupe run`, from exactly one source: the argument, `--input`,
 * `--input-file` (a text file of at most {@link INPUT_MAX_BYTES}), or — when none is given and
 * standard input is not a terminal — standard input, read to its end. Two sources, none at all on
 * a terminal, an empty input, or a binary, oversized or unreadable file are problems;
 * `io.signal` while standard input is read is `interrupted`. Trailing whitespace (the newline of
 * `echo`) is dropped from a file or standard input.
 */
export async function resolveRunInput(sources: InputSources, io: CliIo): Promise<InputResult> {
  const given = (
    [
      ['an argument', sources.argument],
      ['--input', sources.input],
      ['--input-file', sources.inputFile],
    ] as const
  ).filter(([, value]) => value !== undefined);
  if (given.length > 1)
    return { problem: `the input is given ${given.length === 2 ? 'twice' : 'three times'} (${given.map(([name]) => name).join(' and ')}): give it once` };
  let text: string;
  if (sources.argument !== undefined || sources.input !== undefined) {
    text = sources.argument ?? sources.input ?? '';
  } else if (sources.inputFile !== undefined) {
    try {
      text = trimEnd(await readCheckedTextFile(sources.inputFile, { maxBytes: INPUT_MAX_BYTES, what: 'inputs' }));
    } catch (error) {
      if (error instanceof TextFileError) return { problem: error.message };
      return { problem: `cannot read --input-file ${sources.inputFile}: ${describeReadError(error)}` };
    }
  } else {
    const stdin = io.stdin;
    if (stdin === undefined || stdin.isTTY === true) return { problem: `no input: ${HOW}` };
    const read = await readToEnd(stdin, io.signal);
    if (read === 'interrupted') return { interrupted: true };
    if (read === 'too large') return { problem: TextFileError.tooLarge('standard input', INPUT_MAX_BYTES + 1, INPUT_MAX_BYTES, 'inputs').message };
    try {
      text = trimEnd(decodeText(read, 'standard input'));
    } catch (error) {
      if (error instanceof TextFileError) return { problem: error.message };
      throw error;
    }
  }
  if (text.trim() === '') return { problem: `the input is empty: ${HOW}` };
  return { input: text };
}

function trimEnd(text: string): string {
  return text.replace(/\s+$/, '');
}

/** Every byte of `source`, or `too large` past {@link INPUT_MAX_BYTES} (reading stops there), or `interrupted` when `signal` fires first. */
async function readToEnd(source: AsyncIterable<Uint8Array | string>, signal: AbortSignal): Promise<Uint8Array | 'too large' | 'interrupted'> {
  if (signal.aborted) return 'interrupted';
  let onAbort = (): void => undefined;
  const aborted = new Promise<'interrupted'>((resolve) => {
    onAbort = () => resolve('interrupted');
    signal.addEventListener('abort', onAbort, { once: true });
  });
  const read = async (): Promise<Uint8Array | 'too large'> => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of source) {
      const bytes = typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk;
      size += bytes.length;
      // Leaving the loop ends the iteration, which destroys a stream: nothing more is read.
      if (size > INPUT_MAX_BYTES) return 'too large';
      chunks.push(bytes);
    }
    return Buffer.concat(chunks);
  };
  try {
    return await Promise.race([read(), aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

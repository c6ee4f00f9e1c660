import { open } from 'node:fs/promises';
import type { AgentEvent } from '@troupe/core';

/** Options of {@link tailEventsFile}. */
export interface TailOptions {
  /** How often the file is read for new lines. */
  pollMs: number;
  /** Whether the run has ended: once it has and the file has nothing new, the tail stops. */
  ended(): Promise<boolean>;
  onError(error: unknown): void;
}

/**
 * Follows a file store's `events.jsonl` written by another process: hands each event to `onEvent`
 * in file order, from the first line, then each line appended as it lands (a partly written last
 * line waits for its end). Returns the function that stops it.
 */
export function tailEventsFile(file: string, onEvent: (event: AgentEvent) => void, options: TailOptions): () => void {
  let offset = 0;
  let rest = '';
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const decoder = new TextDecoder();

  const read = async (): Promise<boolean> => {
    const handle = await open(file, 'r').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    if (handle === undefined) return false;
    try {
      const { size } = await handle.stat();
      if (size <= offset) return false;
      const buffer = Buffer.alloc(size - offset);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, offset);
      offset += bytesRead;
      const lines = (rest + decoder.decode(buffer.subarray(0, bytesRead), { stream: true })).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) if (line.trim() !== '' && !stopped) onEvent(JSON.parse(line) as AgentEvent);
      return true;
    } finally {
      await handle.close();
    }
  };
  const loop = async (): Promise<void> => {
    if (stopped) return;
    const grew = await read();
    // Read once more after the end is seen: the last events are written after the record.
    if (!grew && (await options.ended()) && !(await read())) return;
    if (!stopped) timer = setTimeout(() => void loop().catch(options.onError), options.pollMs);
  };
  void loop().catch(options.onError);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

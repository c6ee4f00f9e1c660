import { isAbsolute, relative } from 'node:path';
import type { NatsTarget } from './nats-flags.js';

/**
 * The command that starts a worker for graph file `file` on `target`'s NATS and namespace
 * (`troupe worker team.yaml --nats nats://127.0.0.1:4222`), shown where a task waits for one. The
 * file is named relative to the current directory when it lies below it.
 */
export function workerCommandFor(file: string, target: NatsTarget): string {
  const below = relative(process.cwd(), file);
  const shown = below !== '' && !below.startsWith('..') && !isAbsolute(below) ? below : file;
  return `troupe worker ${/\s/.test(shown) ? JSON.stringify(shown) : shown} ${target.flags}`;
}

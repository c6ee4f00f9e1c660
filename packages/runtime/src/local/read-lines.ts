import type { Socket } from 'node:net';

/**
 * Calls `onLine` with each newline-terminated line `socket` receives (without the newline);
 * a line longer than `maxBytes` destroys the socket instead of growing without bound.
 */
export function readLines(socket: Socket, maxBytes: number, onLine: (line: string) => void): void {
  let pending = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    pending += chunk;
    let newline = pending.indexOf('\n');
    while (newline >= 0) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      if (line.trim() !== '') onLine(line);
      newline = pending.indexOf('\n');
    }
    if (pending.length > maxBytes) socket.destroy();
  });
}

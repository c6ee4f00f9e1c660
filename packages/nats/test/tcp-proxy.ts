/**
 * A loopback TCP proxy for fault tests, not a test: a client connected through it can be cut off
 * from its server without either of them noticing at once (`freeze`: nothing is forwarded either
 * way, as in a network partition) and joined again later (`thaw`).
 */
import { createConnection, createServer, type Socket } from 'node:net';

/** A running proxy. */
export interface TcpProxy {
  /** `nats://127.0.0.1:<port>` of the proxy. */
  readonly url: string;
  /** Stops forwarding in both directions; what is sent meanwhile waits in the sockets. */
  freeze(): void;
  /** Forwards again, what waited first. */
  thaw(): void;
  close(): Promise<void>;
}

/** Starts a proxy on a free loopback port to `127.0.0.1:<targetPort>`. */
export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let frozen = false;
  const server = createServer((client) => {
    const upstream = createConnection({ host: '127.0.0.1', port: targetPort });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => sockets.delete(socket));
      if (frozen) socket.pause();
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the proxy has no port');
  return {
    url: `nats://127.0.0.1:${address.port}`,
    freeze: () => {
      frozen = true;
      for (const socket of sockets) socket.pause();
    },
    thaw: () => {
      frozen = false;
      for (const socket of sockets) socket.resume();
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

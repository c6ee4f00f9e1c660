import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';

/** A loopback HTTP proxy in front of `target` that records the headers of every request it forwards. */
export interface RecordingProxy {
  url: string;
  headers: IncomingHttpHeaders[];
  close(): Promise<void>;
}

/** Starts a proxy forwarding everything (streaming responses included) to `target` (origin plus path prefix kept). */
export function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const to = new URL(target);
  const headers: IncomingHttpHeaders[] = [];
  const server: Server = createServer((req, res) => {
    headers.push(req.headers);
    const upstream = request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: { ...req.headers, host: to.host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      resolve({
        url: `http://127.0.0.1:${port}${to.pathname}`,
        headers,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

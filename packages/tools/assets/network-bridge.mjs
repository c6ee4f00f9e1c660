// The network bridge of a sandbox with a host allow-list. It runs inside the sandbox, whose network
// namespace has only loopback: it listens on a loopback port, runs the command with the HTTP(S)
// proxy variables pointing there, and carries each connection to the filtering proxy's Unix socket
// outside (bound into the sandbox), which decides. When the proxy refuses a host, the bridge says
// why on standard error, where the model reads it. It exits as the command does.
//
// Usage: node network-bridge.mjs <proxy socket> -- <command> [args…]
// Plain JavaScript run by `node` directly, so the same file works from the sources and the build.
import { spawn } from 'node:child_process';
import { connect, createServer } from 'node:net';
import { constants } from 'node:os';

const REFUSAL_HEADER = 'x-troupe-sandbox';
const [socketPath, separator, file, ...args] = process.argv.slice(2);
if (socketPath === undefined || separator !== '--' || file === undefined) {
  process.stderr.write('usage: network-bridge.mjs <proxy socket> -- <command> [args…]\n');
  process.exit(2);
}

const server = createServer((client) => {
  const upstream = connect(socketPath);
  upstream.once('data', (chunk) => reportRefusal(chunk));
  client.pipe(upstream);
  upstream.pipe(client);
  client.on('error', () => upstream.destroy());
  upstream.on('error', () => client.destroy());
});

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  const proxy = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
  const env = { ...process.env };
  for (const name of ['NO_PROXY', 'no_proxy']) delete env[name];
  for (const name of ['HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY', 'http_proxy', 'https_proxy', 'all_proxy']) env[name] = proxy;
  const child = spawn(file, args, { stdio: 'inherit', env });
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('error', (error) => {
    process.stderr.write(`${file}: ${error.message}\n`);
    process.exit(127);
  });
  child.on('exit', (code, signal) => process.exit(code ?? 128 + (signal === null ? 0 : (constants.signals[signal] ?? 0))));
});

/** Writes the proxy's reason to standard error when its first answer on a connection is a refusal. */
function reportRefusal(chunk) {
  const head = chunk.toString('latin1').split('\r\n\r\n', 1)[0] ?? '';
  const line = head.split('\r\n').find((header) => header.toLowerCase().startsWith(`${REFUSAL_HEADER}:`));
  if (line !== undefined) process.stderr.write(`${line.slice(REFUSAL_HEADER.length + 1).trim()}\n`);
}

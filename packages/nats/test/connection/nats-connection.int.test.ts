/**
 * connectNats and startNatsServer fail clearly: a port with no server is a typed error naming the
 * server, quickly; a missing creds, nkey or TLS file is a typed error naming the file; a `tls://`
 * URL of a server without TLS is refused rather than used in plain text; a missing
 * nats-server binary says how to install it. A real server is connected to, and a restarted one
 * is reconnected to.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectNats, NatsErrorCode } from '../../src/index.js';
import { startNatsServer, type NatsServerProcess } from '../../src/testing.js';

let server: NatsServerProcess;

beforeAll(async () => {
  server = await startNatsServer();
});

afterAll(async () => {
  await server?.stop();
});

describe('connectNats', () => {
  it('connects, and reconnects after the server restarts', async () => {
    const nc = await connectNats({ servers: server.url, name: 'test', reconnect: { initialDelayMs: 50, maxDelayMs: 200, jitterMs: 50 } });
    try {
      const reconnected = (async () => {
        for await (const status of nc.status()) if (status.type === 'reconnect') return;
      })();
      await server.restart();
      await reconnected;
      await nc.flush();
      expect(nc.isClosed()).toBe(false);
    } finally {
      await nc.close();
    }
  });

  it('fails quickly with a typed error naming the servers when nothing listens', async () => {
    const stopped = await startNatsServer();
    await stopped.stop();
    const failure = connectNats({ servers: [stopped.url], timeoutMs: 500 });
    await expect(failure).rejects.toMatchObject({ code: NatsErrorCode.ConnectFailed, data: { servers: [stopped.url] } });
    await expect(failure).rejects.toThrow(`cannot connect to NATS at ${stopped.url}`);
  });

  it('refuses plain text to a tls:// server that offers no TLS', async () => {
    const failure = connectNats({ servers: server.url.replace(/^nats:/, 'tls:'), timeoutMs: 2000, reconnect: { maxAttempts: 0 } });
    await expect(failure).rejects.toMatchObject({ code: NatsErrorCode.ConnectFailed });
    await expect(failure).rejects.toThrow("server does not support 'tls'");
  });

  it.each([
    ['creds', { credsFile: '/nonexistent/troupe.creds' }, '/nonexistent/troupe.creds'],
    ['nkey seed', { nkeySeedFile: '/nonexistent/seed.nk' }, '/nonexistent/seed.nk'],
    ['TLS CA', { tls: { caFile: '/nonexistent/ca.pem' } }, '/nonexistent/ca.pem'],
  ])('names a missing %s file', async (what, options, file) => {
    const failure = connectNats({ servers: server.url, ...options });
    await expect(failure).rejects.toMatchObject({ code: NatsErrorCode.MissingFile, data: { file } });
    await expect(failure).rejects.toThrow(`cannot read the NATS ${what} file ${file}`);
  });
});

describe('startNatsServer', () => {
  it('says how to install nats-server when the binary is missing', async () => {
    await expect(startNatsServer({ binary: '/nonexistent/nats-server' })).rejects.toThrow('install it with apt-get install -y nats-server');
  });
});

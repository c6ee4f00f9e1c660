/**
 * NATS connection failures end the command cleanly (issue #20): against a nats-server that
 * requires a user and password, `troupe worker` and `troupe run --nats` with a wrong password, or
 * with none, say the server rejected the credentials — without printing the password — and exit 2;
 * a client that asks for TLS (a `tls://` URL, or `--nats-tls-ca`) of a server that has none is
 * refused with a clear error and exits 2 instead of talking in plain text. (No certificates are
 * made: the mismatch is found before any would be read.) The right password runs.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startNatsServer, type NatsServerProcess } from '@troupe/nats/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnTroupe } from '../spawn-troupe.js';

const USER = 'troupe';
const PASSWORD = 'right-pass-4711';
const WRONG = 'wrong-pass-0815';

let server: NatsServerProcess;
let dir: string;

beforeAll(async () => {
  server = await startNatsServer({ auth: { user: USER, password: PASSWORD } });
  dir = await mkdtemp(join(tmpdir(), 'troupe-connect-'));
});

afterAll(async () => {
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('NATS credentials and TLS that do not match the server', () => {
  it.each([
    ['worker', ['worker', 'echo.yaml']],
    ['run', ['run', 'echo.yaml', '--input', 'hi']],
  ])('troupe %s with a wrong password exits 2, saying the credentials were rejected', { timeout: 60_000 }, async (command, args) => {
    const result = await spawnTroupe([...args, '--nats', server.url, '--nats-user', USER, '--nats-pass', WRONG]);
    expect(result.stderr).toBe(`troupe ${command}: NATS at ${server.url} rejected the credentials: Authorization Violation\n`);
    expect(result.stdout).toBe('');
    expect(result.code).toBe(2);
  });

  it('troupe run with no credentials exits 2 the same way', { timeout: 60_000 }, async () => {
    const result = await spawnTroupe(['run', 'echo.yaml', '--input', 'hi', '--nats', server.url]);
    expect(result.stderr).toBe(`troupe run: NATS at ${server.url} rejected the credentials: Authorization Violation\n`);
    expect(result.code).toBe(2);
  });

  it('a tls:// URL of a server without TLS exits 2 instead of connecting in plain text', { timeout: 60_000 }, async () => {
    const tlsUrl = server.url.replace(/^nats:/, 'tls:');
    const result = await spawnTroupe(['worker', 'echo.yaml', '--nats', tlsUrl, '--nats-user', USER, '--nats-pass', PASSWORD]);
    expect(result.stderr).toBe(`troupe worker: cannot connect to NATS at ${tlsUrl}: server does not support 'tls'\n`);
    expect(result.code).toBe(2);
  });

  it('a TLS CA for a server without TLS exits 2', { timeout: 60_000 }, async () => {
    // Never read as a certificate: the server's greeting already says it has no TLS.
    const ca = join(dir, 'ca.pem');
    await writeFile(ca, 'not a certificate\n');
    const result = await spawnTroupe([
      'run',
      'echo.yaml',
      '--input',
      'hi',
      '--nats',
      server.url,
      '--nats-user',
      USER,
      '--nats-pass',
      PASSWORD,
      '--nats-tls-ca',
      ca,
    ]);
    expect(result.stderr).toBe(`troupe run: cannot connect to NATS at ${server.url}: server does not support 'tls'\n`);
    expect(result.code).toBe(2);
  });

  it('the right password runs', { timeout: 60_000 }, async () => {
    const result = await spawnTroupe(['run', 'echo.yaml', '--input', 'hi', '--nats', server.url, '--nats-user', USER, '--nats-pass', PASSWORD]);
    expect(result.stdout).toBe('Let me echo that.\nThe echo said ping.\n');
    expect(result.code).toBe(0);
  });
});

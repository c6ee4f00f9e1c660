/**
 * Proves how the NATS flags resolve, without a server: each absent flag falls back to its
 * environment variable, a comma-separated list becomes several servers, `user:password@` in a URL
 * is masked wherever it is printed, and the commands that need NATS say so (exit 2) when neither
 * a flag nor the environment names a server.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli.js';
import { maskUserInfo, natsTargetOf } from '../../src/nats/nats-flags.js';
import { captureIo, fixturePath } from '../run-cli.js';

describe('natsTargetOf', () => {
  it('is undefined when no server is named', () => {
    expect(natsTargetOf({}, {})).toBeUndefined();
    expect(natsTargetOf({ nats: ' ' }, {})).toBeUndefined();
  });

  it('takes the flags first, then the environment', () => {
    const env = { TROUPE_NATS_URL: 'nats://env:4222', TROUPE_NATS_PASS: 'env-pass', TROUPE_NATS_TOKEN: 'env-token', TROUPE_NAMESPACE: 'prod' };
    expect(natsTargetOf({}, env)).toEqual({
      connect: { servers: ['nats://env:4222'], pass: 'env-pass', token: 'env-token' },
      namespace: 'prod',
      display: 'nats://env:4222',
      flags: '--nats nats://env:4222 --namespace prod',
    });
    const flagged = natsTargetOf(
      { nats: 'nats://a:4222, nats://b:4222', natsUser: 'ann', natsPass: 'flag-pass', namespace: 'default', natsCreds: 'x.creds', natsTlsCa: 'ca.pem' },
      env,
    );
    expect(flagged).toEqual({
      connect: {
        servers: ['nats://a:4222', 'nats://b:4222'],
        user: 'ann',
        pass: 'flag-pass',
        token: 'env-token',
        credsFile: 'x.creds',
        tls: { caFile: 'ca.pem' },
      },
      namespace: 'default',
      display: 'nats://a:4222,nats://b:4222',
      flags: '--nats nats://a:4222,nats://b:4222',
    });
  });

  it('masks credentials in URLs', () => {
    expect(natsTargetOf({ nats: 'nats://ann:pw@a:4222,tls://tok@b:4222' }, {})?.display).toBe('nats://***@a:4222,tls://***@b:4222');
    expect(maskUserInfo('cannot connect to NATS at nats://ann:pw@a:4222: refused')).toBe('cannot connect to NATS at nats://***@a:4222: refused');
  });
});

describe('commands that need NATS', () => {
  it.each([['watch', 'run_x'], ['workers'], ['worker', fixturePath('nats-team.yaml')]])('troupe %s exits 2 without --nats', async (command, ...args) => {
    const io = captureIo();
    expect(await runCli([command, ...args], io)).toBe(2);
    expect(io.stderrText()).toBe(`troupe ${command}: --nats <urls> is required (or set TROUPE_NATS_URL)\n`);
  });

  it('troupe run refuses --remote-all without --nats', async () => {
    const io = captureIo();
    expect(await runCli(['run', fixturePath('nats-team.yaml'), '-i', 'x', '--remote-all'], io)).toBe(2);
    expect(io.stderrText()).toBe('troupe run: --remote-all needs --nats <urls> (or TROUPE_NATS_URL)\n');
  });
});

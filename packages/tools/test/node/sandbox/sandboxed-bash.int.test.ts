/**
 * `bash` in bubblewrap (Debian's `bubblewrap`, which CI installs): it writes in its workspace and
 * its private temporary directory and nowhere else, cannot read the hidden paths, reaches no network unless
 * allowed, leaves no process behind (a daemonized child included), and says in words the model
 * can act on when the sandbox denied something.
 */
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, type Server } from 'node:net';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createBashTool } from '../../../src/node/bash/bash-tool.js';
import { sandboxSupport } from '../../../src/node/sandbox/bubblewrap.js';
import type { SandboxPolicy } from '../../../src/sandbox-policy.js';
import { testToolContext } from '../../tool-context.js';
import { tempWorkspace, textOf } from '../temp-workspace.js';

let ws: Awaited<ReturnType<typeof tempWorkspace>>;
let outside: string;
beforeEach(async () => {
  ws = await tempWorkspace({ 'in.txt': 'inside\n' });
  // Not under /tmp: the sandbox has a /tmp of its own, where this would not even exist.
  outside = mkdtempSync(join('/var/tmp', 'troupe-outside-'));
});
afterEach(async () => {
  await ws.remove();
  rmSync(outside, { recursive: true, force: true });
});

const sandboxed = { mode: 'required' } as const;

async function run(command: string, sandbox: SandboxPolicy = sandboxed) {
  const tool = createBashTool({ workspace: ws.root, sandbox });
  const result = await tool.execute({ command }, testToolContext());
  return { ...result, text: textOf(result.content) };
}

/** Pids of live (not zombie) processes whose whole command line is `command`. */
function running(command: string): number[] {
  const out = execFileSync('ps', ['-eo', 'pid=,stat=,args='], { encoding: 'utf8' });
  return out.split('\n').flatMap((line) => {
    const match = /^\s*(\d+)\s+(\S+)\s+(.*)$/.exec(line);
    return match !== null && match[3] === command && !match[2]?.startsWith('Z') ? [Number(match[1])] : [];
  });
}

describe('bash in the sandbox', () => {
  it('is available on this machine (CI installs bubblewrap)', () => {
    expect(sandboxSupport()).toMatchObject({ available: true });
  });

  it('writes in its workspace and its private temporary directory, and nowhere else', async () => {
    const ok = await run('echo made > new.txt && echo tmp > "$TMPDIR/scratch" && cat "$TMPDIR/scratch" in.txt && echo "$TMPDIR"');
    expect(ok.isError).toBeUndefined();
    const [tmp, inside, privateDir] = ok.text.split('\n');
    expect([tmp, inside]).toEqual(['tmp', 'inside']);
    expect(ok.details).toMatchObject({ sandboxed: true });
    expect(readFileSync(ws.path('new.txt'), 'utf8')).toBe('made\n');
    // Its temporary directory is gone with the command; the machine's /tmp is read-only to it.
    expect(existsSync(privateDir ?? '')).toBe(false);
    const machineTmp = await run(`echo x > /tmp/troupe-escape-${process.pid}`);
    expect(machineTmp.isError).toBe(true);
    expect(existsSync(`/tmp/troupe-escape-${process.pid}`)).toBe(false);
    const denied = await run(`echo escaped > ${join(outside, 'x.txt')}`);
    expect(denied.isError).toBe(true);
    expect(denied.text).toContain('[permission denied by the sandbox: write outside the workspace (only the workspace and $TMPDIR are writable)]');
    expect(existsSync(join(outside, 'x.txt'))).toBe(false);
    const etc = await run('touch /etc/troupe-escape');
    expect(etc.isError).toBe(true);
    expect(existsSync('/etc/troupe-escape')).toBe(false);
  });

  it('cannot read what the policy hides, a directory or a file', async () => {
    mkdirSync(join(outside, 'keys'));
    writeFileSync(join(outside, 'keys', 'id_rsa'), 'PRIVATE KEY');
    writeFileSync(join(outside, '.env'), 'API_KEY=sk-secret');
    const result = await run(`cat ${join(outside, 'keys', 'id_rsa')}; cat ${join(outside, '.env')}; ls -A ${join(outside, 'keys')}; echo end`, {
      mode: 'required',
      denyRead: [join(outside, 'keys'), join(outside, '.env')],
    });
    expect(result.text).not.toContain('PRIVATE KEY');
    expect(result.text).not.toContain('sk-secret');
    expect(result.text).toContain('end');
  });

  describe('with a server on loopback', () => {
    let server: Server;
    let port = 0;
    let connections = 0;
    beforeEach(async () => {
      connections = 0;
      server = createServer((socket) => {
        connections += 1;
        socket.end('hello\n');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const address = server.address();
      port = typeof address === 'object' && address !== null ? address.port : 0;
    });
    afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('reaches no network unless the policy allows it', async () => {
      const probe = `exec 3<>/dev/tcp/127.0.0.1/${port} && head -n1 <&3`;
      const off = await run(probe);
      expect(off.isError).toBe(true);
      expect(connections).toBe(0);
      const on = await run(probe, { mode: 'required', network: { allow: ['*'] } });
      expect(on.text).toBe('hello');
      expect(connections).toBe(1);
    });
  });

  describe('with an allow-list of hosts and a web server on loopback', () => {
    let server: HttpServer;
    let port = 0;
    let requests: string[] = [];
    beforeEach(async () => {
      requests = [];
      server = createHttpServer((req, res) => {
        requests.push(`${req.method} ${req.url}`);
        res.end('hi from the host\n');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const address = server.address();
      port = typeof address === 'object' && address !== null ? address.port : 0;
    });
    afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())));

    const curl = (flags: string) => `curl -sS --max-time 20 ${flags} http://localhost:${port}/page`;

    it('reaches an allowed host through the proxy, forwarded or tunnelled (CONNECT)', async () => {
      const policy: SandboxPolicy = { mode: 'required', network: { allow: ['localhost'] } };
      const forwarded = await run(curl(''), policy);
      expect(forwarded.text).toBe('hi from the host');
      const tunnelled = await run(curl('--proxytunnel'), policy);
      expect(tunnelled.text).toBe('hi from the host');
      expect(requests).toEqual(['GET /page', 'GET /page']);
    });

    it('refuses any other host, in words the model can act on, and cannot go around the proxy', async () => {
      const policy: SandboxPolicy = { mode: 'required', network: { allow: ['api.example.com', '*.example.org'] } };
      const reason = `permission denied by the sandbox: network access to localhost:${port} (not in sandbox.network.allow)`;
      const forwarded = await run(curl('--fail-with-body'), policy);
      expect(forwarded.isError).toBe(true);
      expect(forwarded.text).toContain(reason);
      const tunnelled = await run(curl('--proxytunnel'), policy);
      expect(tunnelled.isError).toBe(true);
      expect(tunnelled.text).toContain(reason);
      // Without the proxy there is no way out: the sandbox's loopback is its own.
      const direct = await run(`exec 3<>/dev/tcp/127.0.0.1/${port} && head -n1 <&3`, policy);
      expect(direct.isError).toBe(true);
      const unproxied = await run(`${curl('--noproxy "*"')}`, policy);
      expect(unproxied.isError).toBe(true);
      expect(requests).toEqual([]);
    });
  });

  it('leaves no process behind: a daemonized child ends with the command, and an abort ends them all', async () => {
    const daemon = `sleep 301.${process.pid}`;
    const ended = await run(`setsid ${daemon} > /dev/null 2>&1 < /dev/null & echo started`);
    expect(ended.text).toBe('started');
    await until(() => running(daemon).length === 0);

    const held = `sleep 302.${process.pid}`;
    const controller = new AbortController();
    const tool = createBashTool({ workspace: ws.root, sandbox: sandboxed });
    const pending = tool.execute({ command: `(setsid ${held} &) ; ${held}` }, testToolContext({ signal: controller.signal }));
    await until(() => running(held).length === 2);
    controller.abort();
    expect((await pending).details).toMatchObject({ aborted: true, sandboxed: true });
    await until(() => running(held).length === 0);
  });

  it('passes no credential-like variable to the command unless the settings name it', async () => {
    process.env['TROUPE_TEST_API_KEY'] = 'sk-from-env';
    try {
      expect((await run('echo "${TROUPE_TEST_API_KEY:-unset}"')).text).toBe('unset');
      const tool = createBashTool({ workspace: ws.root, sandbox: sandboxed, settings: { env: ['TROUPE_TEST_API_KEY'] } });
      expect(textOf((await tool.execute({ command: 'echo "$TROUPE_TEST_API_KEY"' }, testToolContext())).content)).toBe('sk-from-env');
    } finally {
      delete process.env['TROUPE_TEST_API_KEY'];
    }
  });
});

/** Resolves once `done()` holds; checks every 20 ms, for at most 10 s (a hang, not a timing). */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (done()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  expect(done()).toBe(true);
}

import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { McpStdioServerConfig } from '../../src/index.js';

const require = createRequire(import.meta.url);

/** The entry script of an installed server package (`bin` of its package.json). */
function binOf(pkg: string): string {
  const manifest = require.resolve(`${pkg}/package.json`);
  const json = JSON.parse(readFileSync(manifest, 'utf8')) as { bin: string | Record<string, string> };
  const bin = typeof json.bin === 'string' ? json.bin : (Object.values(json.bin)[0] as string);
  return join(dirname(manifest), bin);
}

/** server-everything over stdio, run by this Node (one process, no shell or npx in between). */
export function everythingStdio(): McpStdioServerConfig {
  return { command: process.execPath, args: [binOf('@modelcontextprotocol/server-everything'), 'stdio'] };
}

/** server-filesystem allowed to work in `dir`. */
export function filesystemServer(dir: string): McpStdioServerConfig {
  return { command: process.execPath, args: [binOf('@modelcontextprotocol/server-filesystem'), dir] };
}

/** server-memory keeping its graph in `file` (always set: G12). */
export function memoryServer(file: string): McpStdioServerConfig {
  return { command: process.execPath, args: [binOf('@modelcontextprotocol/server-memory')], env: { MEMORY_FILE_PATH: file } };
}

/** The probe server of test/fixtures. */
export function probeServer(): McpStdioServerConfig {
  return { command: process.execPath, args: [fileURLToPath(new URL('../fixtures/probe-server.mjs', import.meta.url))] };
}

/** A port free on the loopback interface right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** A server-everything process serving HTTP, ready once it printed its listening line. */
export interface HttpServerProcess {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Starts server-everything in `streamableHttp` or `sse` mode on a free port (PORT is always set:
 * G13) and resolves once its stderr says it listens.
 */
export async function startEverythingHttp(mode: 'streamableHttp' | 'sse'): Promise<HttpServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [binOf('@modelcontextprotocol/server-everything'), mode], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const ready = mode === 'streamableHttp' ? `listening on port ${port}` : `running on port ${port}`;
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      seen += chunk;
      if (seen.includes(ready)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`server-everything ${mode} exited with ${code}: ${seen}`)));
  });
  const path = mode === 'streamableHttp' ? '/mcp' : '/sse';
  return {
    url: `http://127.0.0.1:${port}${path}`,
    child,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}

/** The pids of the running children of `pid` (from /proc). */
export function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) === pid && fields[0] !== 'Z') children.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return children;
}

/** Whether a process runs (a zombie counts as gone: it has exited). */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

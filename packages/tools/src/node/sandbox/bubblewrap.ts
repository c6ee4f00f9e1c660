import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_SECRET_PATHS, networkAllowed, networkAllowList, type SandboxPolicy } from '../../sandbox-policy.js';
import { networkProxyFor } from './network-proxy.js';

/** The bridge a sandbox with a host allow-list runs its command under (plain JS, the same path from src and dist). */
const NETWORK_BRIDGE = fileURLToPath(new URL('../../../assets/network-bridge.mjs', import.meta.url));

/** What this machine offers for sandboxing. */
export interface SandboxSupport {
  available: boolean;
  /** `bubblewrap 0.8.0`, or why there is no sandbox. */
  detail: string;
}

let support: SandboxSupport | undefined;

/**
 * Whether bubblewrap (`bwrap`, Debian's `bubblewrap`) can build a sandbox here: probed once per
 * process by starting `true` in one with every namespace the policy uses (a container without
 * user namespaces, say, has `bwrap` but cannot use it).
 */
export function sandboxSupport(): SandboxSupport {
  if (support !== undefined) return support;
  const version = spawnSync('bwrap', ['--version'], { encoding: 'utf8' });
  if (version.error !== undefined || version.status !== 0) {
    support = { available: false, detail: 'bubblewrap (bwrap) is not installed: apt-get install bubblewrap' };
    return support;
  }
  const probe = spawnSync('bwrap', [...baseArgs(), '--unshare-net', '--', 'true'], { encoding: 'utf8' });
  support =
    probe.status === 0
      ? { available: true, detail: version.stdout.trim() }
      : { available: false, detail: `bubblewrap cannot create a sandbox here: ${probe.stderr.trim() || `exit ${probe.status}`}` };
  return support;
}

/** What a sandboxed command runs in. */
export interface SandboxScope {
  /** Writable, and where it starts. */
  workspace: string;
  /** The directory it starts in (the workspace's real path). */
  cwd: string;
  /** A private temporary directory, writable (its `TMPDIR`); the machine's /tmp stays read-only. */
  tmp?: string;
}

/**
 * The `bwrap` arguments that run `argv` under `policy`: the root read-only (the machine's /tmp
 * too: a tool may live there), `/dev` and `/proc` of its own, the workspace, its private temporary
 * directory and `allowWrite` writable, the secret paths that exist
 * covered (a directory by an empty one, a file by an empty file), its own process, IPC and (unless
 * allowed) network namespaces, no capabilities, and nothing left running once bwrap ends.
 *
 * With a host allow-list the network namespace has only loopback, and `argv` runs under the
 * network bridge: its HTTP(S) proxy variables lead to this process's filtering proxy
 * ({@link networkProxyFor}), which reaches the allowed hosts and refuses the others.
 */
export function bubblewrapArgs(policy: SandboxPolicy, scope: SandboxScope, argv: readonly string[]): string[] {
  const args = baseArgs();
  if (!networkAllowed(policy)) args.push('--unshare-net');
  const allowList = networkAllowList(policy);
  for (const path of [scope.workspace, ...(scope.tmp === undefined ? [] : [scope.tmp]), ...(policy.allowWrite ?? []).map(expand)]) {
    if (existsSync(path)) args.push('--bind', path, path);
  }
  for (const path of [...DEFAULT_SECRET_PATHS, ...(policy.denyRead ?? [])].map(expand)) {
    const kind = kindOf(path);
    if (kind === 'directory') args.push('--tmpfs', path);
    else if (kind === 'file') args.push('--ro-bind', '/dev/null', path);
  }
  args.push('--chdir', scope.cwd, '--');
  if (allowList.length === 0) args.push(...argv);
  else args.push(process.execPath, NETWORK_BRIDGE, networkProxyFor(allowList).socket, '--', ...argv);
  return args;
}

/** The namespaces and mounts every sandbox has. */
function baseArgs(): string[] {
  return [
    '--die-with-parent',
    '--unshare-user',
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    '--cap-drop',
    'ALL',
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
  ];
}

/** `~/x` in the home directory; relative paths from the working directory. */
function expand(path: string): string {
  if (path === '~' || path.startsWith('~/')) return join(homedir(), path.slice(1));
  return isAbsolute(path) ? path : resolve(path);
}

function kindOf(path: string): 'directory' | 'file' | undefined {
  try {
    return statSync(path).isDirectory() ? 'directory' : 'file';
  } catch {
    return undefined;
  }
}

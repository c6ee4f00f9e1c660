/**
 * Whether a sandboxed process may reach `host` on `port`, by the hosts of a policy's
 * `network.allow`:
 * - `*` allows every host;
 * - `api.github.com` that host, on any port; `api.github.com:443` on that port only;
 * - `*.github.com` every subdomain of github.com (not github.com itself);
 * - an IP literal (`127.0.0.1`, `[::1]:8080`) that address.
 * Names compare without case and without a trailing dot.
 */
export function hostAllowed(allow: readonly string[], host: string, port: number): boolean {
  const name = normalHost(host);
  return allow.some((entry) => {
    if (entry === '*') return true;
    const rule = parseEntry(entry);
    if (rule.port !== undefined && rule.port !== port) return false;
    if (rule.host.startsWith('*.')) return name.endsWith(rule.host.slice(1)) && name.length > rule.host.length - 1;
    return name === rule.host;
  });
}

/** `host`, `host:port`, `[v6]` or `[v6]:port`, its host normalized. */
function parseEntry(entry: string): { host: string; port?: number } {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed !== null) return withPort(normalHost(bracketed[1] ?? ''), bracketed[2]);
  const colon = entry.lastIndexOf(':');
  // More than one colon without brackets is a bare IPv6 address, not host:port.
  if (colon > 0 && entry.indexOf(':') === colon && /^\d+$/.test(entry.slice(colon + 1))) {
    return withPort(normalHost(entry.slice(0, colon)), entry.slice(colon + 1));
  }
  return { host: normalHost(entry) };
}

function withPort(host: string, port: string | undefined): { host: string; port?: number } {
  return port === undefined ? { host } : { host, port: Number(port) };
}

function normalHost(host: string): string {
  return host
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
}

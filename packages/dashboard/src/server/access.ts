import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { DashboardError, DashboardErrorCode } from '../dashboard-error.js';

/** The cookie the page's token is kept in once it loaded with `?token=`. */
export const TOKEN_COOKIE = 'troupe_dashboard_token';

/** The token a request carries: `Authorization: Bearer …`, `X-Troupe-Token`, or the cookie. */
export function tokenOf(request: IncomingMessage): string | undefined {
  const bearer = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1];
  if (bearer !== undefined) return bearer.trim();
  const header = request.headers['x-troupe-token'];
  if (typeof header === 'string') return header;
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === TOKEN_COOKIE) return decodeURIComponent(value.join('='));
  }
  return undefined;
}

/** Whether `given` is `token`, compared in constant time. */
export function sameToken(given: string | undefined, token: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Throws `unauthorized` unless the request carries the dashboard's token. */
export function assertToken(request: IncomingMessage, token: string): void {
  if (!sameToken(tokenOf(request), token))
    throw new DashboardError(
      DashboardErrorCode.Unauthorized,
      'this dashboard needs its token: open the URL it printed (with ?token=…), or send Authorization: Bearer <token>',
    );
}

/**
 * Throws `forbidden` for a POST another site's page could have sent: its `Origin` (or, without
 * one, `Sec-Fetch-Site`) must be this server, and its body JSON (which a cross-site form cannot send
 * without a preflight the server never answers).
 */
export function assertSameOrigin(request: IncomingMessage): void {
  const origin = request.headers.origin;
  const host = request.headers.host;
  const site = request.headers['sec-fetch-site'];
  const sameOrigin = origin === undefined ? site === undefined || site === 'same-origin' || site === 'none' : host !== undefined && origin === `http://${host}`;
  if (!sameOrigin) throw new DashboardError(DashboardErrorCode.Forbidden, `a request from ${origin ?? `a ${String(site)} site`} may not act on this dashboard`);
  if (!/^application\/json\b/i.test(request.headers['content-type'] ?? ''))
    throw new DashboardError(DashboardErrorCode.BadRequest, 'actions take a JSON body (Content-Type: application/json)');
}

/** The dashboard's API as the page calls it: the token travels in its cookie, actions as same-origin JSON POSTs. */

/** An error the API answered with: its code (`stale_request`, `unknown_run`, `unauthorized`…) and message. */
export class ApiError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const response = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const data = (await response.json().catch(() => ({}))) as { error?: { code: string; message: string } };
  if (!response.ok) throw new ApiError(data.error?.code ?? `http_${response.status}`, data.error?.message ?? response.statusText);
  return data as T;
}

/** GETs `path`. */
export const get = <T>(path: string): Promise<T> => call<T>('GET', path);
/** POSTs `body` to `path`. */
export const post = <T>(path: string, body: unknown): Promise<T> => call<T>('POST', path, body);

/** The path of run `id`'s API. */
export const runPath = (id: string): string => `/api/runs/${encodeURIComponent(id)}`;

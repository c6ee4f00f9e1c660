/** The banner that says what an API call got wrong, with its code. */
import { ApiError } from './api.js';

/** Says what failed, with the API's code. */
export function ErrorBanner({ error }: { error: unknown }) {
  if (error === undefined) return null;
  const code = error instanceof ApiError ? error.code : 'error';
  const message = error instanceof Error ? error.message : String(error);
  return (
    <div class="banner error" role="alert" data-code={code}>
      <strong>{code}</strong> {message}
    </div>
  );
}

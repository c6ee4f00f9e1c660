/** Replaces secrets in a text with `[redacted]`. */
export type Scrubber = (text: string) => string;

/** Shapes of vendor keys, whole or masked the way vendors echo them (`sk-proj-****abcd`). */
const KEY_SHAPES = [/\bsk-[A-Za-z0-9_*.-]{8,}/g, /\bAIza[0-9A-Za-z_-]{20,}/g, /\b(?:gsk|xai|pplx)_[A-Za-z0-9_*-]{16,}/g];

/**
 * A scrubber for error messages: removes each of `secrets` (the API keys a provider holds, read
 * when it scrubs, so keys added to the list later count) and anything shaped like a vendor key, so
 * keys never reach events, logs or snapshots even when a server echoes them back.
 */
export function createScrubber(secrets: readonly (string | undefined)[]): Scrubber {
  return (text) => {
    let out = text;
    for (const secret of secrets) if (secret !== undefined && secret.length >= 6) out = out.split(secret).join('[redacted]');
    for (const shape of KEY_SHAPES) out = out.replace(shape, '[redacted]');
    return out;
  };
}

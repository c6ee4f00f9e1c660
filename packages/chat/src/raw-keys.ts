/** A key ink's `useInput` does not tell apart, decoded from the raw input. */
export type RawKey = { type: 'f2' } | { type: 'wheel'; direction: -1 | 1 };

/**
 * F2 (xterm `ESC O Q`, vt `ESC [ 12 ~`, linux console `ESC [ [ B`) and mouse wheel reports (SGR
 * `ESC [ < 64;x;y M` up, `65` down); undefined for anything else. The leading escape may already
 * be stripped.
 */
export function decodeRawKey(input: string): RawKey | undefined {
  const data = input.startsWith('\u001b') ? input.slice(1) : input;
  if (data === 'OQ' || data === '[12~' || data === '[[B') return { type: 'f2' };
  const wheel = /^\[<(64|65);\d+;\d+[Mm]$/.exec(data);
  if (wheel !== null) return { type: 'wheel', direction: wheel[1] === '64' ? -1 : 1 };
  return undefined;
}

/** Turns on SGR mouse reports (for the wheel); {@link MOUSE_OFF} turns them off. */
export const MOUSE_ON = '\u001b[?1000h\u001b[?1006h';
export const MOUSE_OFF = '\u001b[?1000l\u001b[?1006l';
/** The alternate screen: the chat is full-screen and leaves the shell's screen as it was. */
export const ALT_SCREEN_ON = '\u001b[?1049h';
export const ALT_SCREEN_OFF = '\u001b[?1049l';

/** Whether `input` is a mouse report (a click, a wheel step), which is never text to type. */
export function isMouseReport(input: string): boolean {
  return /^\u001b?\[<\d+;\d+;\d+[Mm]$/.test(input);
}

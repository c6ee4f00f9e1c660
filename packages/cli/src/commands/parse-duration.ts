const UNITS: Readonly<Record<string, number>> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** Milliseconds of a duration like `7d`, `12h`, `90m`, `1d12h` (units s, m, h, d, w); `undefined` when it is not one. */
export function parseDuration(text: string): number | undefined {
  if (!/^(\d+(\.\d+)?[smhdw])+$/.test(text.trim())) return undefined;
  let ms = 0;
  for (const [, amount, unit] of text.trim().matchAll(/(\d+(?:\.\d+)?)([smhdw])/g)) ms += Number(amount) * (UNITS[unit ?? ''] ?? 0);
  return ms;
}

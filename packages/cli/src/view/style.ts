/** Text styling for a terminal; every function is the identity when colour is off. */
export interface Style {
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
}

const wrap =
  (open: number, close: number) =>
  (text: string): string =>
    text === '' ? '' : `\x1b[${open}m${text}\x1b[${close}m`;

/** ANSI styles. */
export const COLOR: Style = { bold: wrap(1, 22), dim: wrap(2, 22), red: wrap(31, 39), green: wrap(32, 39), yellow: wrap(33, 39), cyan: wrap(36, 39) };

const identity = (text: string): string => text;

/** No styling. */
export const PLAIN: Style = { bold: identity, dim: identity, red: identity, green: identity, yellow: identity, cyan: identity };

/**
 * Colour for a terminal unless the environment says no (`NO_COLOR`, `TERM=dumb`); `FORCE_COLOR`
 * asks for it elsewhere too. An explicit `NO_COLOR` wins (https://no-color.org): tools such as nx
 * set `FORCE_COLOR` for the programs they start, and a pipe must not get escape codes then.
 */
export function styleFor(isTerminal: boolean, env: Readonly<Record<string, string | undefined>>): Style {
  if ((env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '') || env['TERM'] === 'dumb') return PLAIN;
  const force = env['FORCE_COLOR'];
  if (force !== undefined && force !== '' && force !== '0' && force !== 'false') return COLOR;
  return isTerminal ? COLOR : PLAIN;
}

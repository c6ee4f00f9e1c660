/** The environment variables interpolation reads. */
export type Env = Readonly<Record<string, string | undefined>>;

/** A `${…}` reference that could not be substituted. `index` and `length` locate it in the input. */
export interface EnvProblem {
  kind: 'unset' | 'malformed';
  /** The variable name (`unset`) or the reference text (`malformed`). */
  name: string;
  index: number;
  length: number;
  /** The reference exactly as written, for locating it in a source file. */
  text: string;
}

/** The substituted string and what could not be substituted (left as written). */
export interface InterpolationResult {
  value: string;
  problems: EnvProblem[];
}

const REFERENCE = /^([A-Za-z_][A-Za-z0-9_]*)(?::-(.*))?$/s;

/**
 * Substitutes `${NAME}` with the variable's value and `${NAME:-fallback}` with the value or, when
 * it is unset or empty, the fallback. `$${` stands for a literal `${`. An unset variable without
 * a fallback and a malformed reference (`${}`, `${1X}`, an unclosed `${`) are reported and left
 * as written.
 */
export function interpolateEnv(text: string, env: Env): InterpolationResult {
  const problems: EnvProblem[] = [];
  let value = '';
  let i = 0;
  while (i < text.length) {
    const dollar = text.indexOf('$', i);
    if (dollar === -1) break;
    value += text.slice(i, dollar);
    if (text.startsWith('$${', dollar)) {
      value += '${';
      i = dollar + 3;
      continue;
    }
    if (!text.startsWith('${', dollar)) {
      value += '$';
      i = dollar + 1;
      continue;
    }
    const close = text.indexOf('}', dollar + 2);
    const end = close === -1 ? text.length : close + 1;
    const written = text.slice(dollar, end);
    const match = close === -1 ? null : REFERENCE.exec(text.slice(dollar + 2, close));
    if (match === null) {
      problems.push({ kind: 'malformed', name: written, index: dollar, length: written.length, text: written });
      value += written;
    } else {
      const name = match[1] ?? '';
      const fallback = match[2];
      const found = Object.hasOwn(env, name) ? env[name] : undefined;
      if (fallback !== undefined) {
        value += found === undefined || found === '' ? fallback : found;
      } else if (found === undefined) {
        problems.push({ kind: 'unset', name, index: dollar, length: written.length, text: written });
        value += written;
      } else {
        value += found;
      }
    }
    i = end;
  }
  return { value: value + text.slice(i), problems };
}

/**
 * Turns a glob into a regular expression over `/`-separated relative paths: `*` and `?` stay
 * within one segment, `**` spans segments (`src/**` matches everything under src, `**\/x.ts` any
 * x.ts), `{a,b}` is an alternative and `[abc]`/`[!abc]` a character class.
 */
export function globToRegExp(glob: string): RegExp {
  return new RegExp(`^${translate(glob)}$`);
}

/**
 * A predicate over relative paths for `glob`. A glob without `/` is matched against the base name
 * (`*.ts` matches `src/a/b.ts`), as ripgrep's `--glob` and most tools do.
 */
export function globMatcher(glob: string): (path: string) => boolean {
  const regex = globToRegExp(glob);
  if (glob.includes('/')) return (path) => regex.test(path);
  return (path) => regex.test(path.slice(path.lastIndexOf('/') + 1));
}

function translate(glob: string): string {
  let out = '';
  let i = 0;
  while (i < glob.length) {
    const c = glob[i] as string;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        const slashAfter = glob[i + 2] === '/';
        const atSegmentStart = i === 0 || glob[i - 1] === '/';
        if (atSegmentStart && slashAfter) {
          out += '(?:.*/)?';
          i += 3;
        } else {
          out += '.*';
          i += 2;
        }
      } else {
        out += '[^/]*';
        i += 1;
      }
    } else if (c === '?') {
      out += '[^/]';
      i += 1;
    } else if (c === '{') {
      const end = closing(glob, i, '{', '}');
      if (end === -1) {
        out += '\\{';
        i += 1;
      } else {
        out += `(?:${splitAlternatives(glob.slice(i + 1, end))
          .map(translate)
          .join('|')})`;
        i = end + 1;
      }
    } else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end === -1) {
        out += '\\[';
        i += 1;
      } else {
        const body = glob.slice(i + 1, end).replace(/\\/g, '\\\\');
        out += `[${body.startsWith('!') ? `^${body.slice(1)}` : body}]`;
        i = end + 1;
      }
    } else {
      out += /[.+^$()|\\\]]/.test(c) ? `\\${c}` : c;
      i += 1;
    }
  }
  return out;
}

/** The index of the bracket closing the one at `start`, honouring nesting; -1 if unclosed. */
function closing(text: string, start: number, open: string, close: string): number {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    if (text[i] === open) depth += 1;
    else if (text[i] === close && --depth === 0) return i;
  }
  return -1;
}

/** Splits `a,b{c,d},e` at the top-level commas. */
function splitAlternatives(body: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    if (body[i] === '{') depth += 1;
    else if (body[i] === '}') depth -= 1;
    else if (body[i] === ',' && depth === 0) {
      parts.push(body.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(body.slice(start));
  return parts;
}

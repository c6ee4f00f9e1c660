/** The line of a file most like a snippet, with its 1-based number and a similarity in 0…1. */
export interface SimilarLine {
  line: number;
  text: string;
  similarity: number;
}

/** Lines are compared up to this many characters, so the search stays cheap on long lines. */
const COMPARE_CHARS = 200;

/**
 * The line of `text` most similar to the first non-blank line of `snippet` (whitespace at either
 * end ignored), by edit distance; `undefined` when the file is empty or nothing is at least a
 * third alike. Used to tell a model where an edit that matched nothing probably meant to go.
 */
export function mostSimilarLine(text: string, snippet: string): SimilarLine | undefined {
  const needle = (snippet.split('\n').find((line) => line.trim() !== '') ?? '').trim().slice(0, COMPARE_CHARS);
  if (needle === '') return undefined;
  let best: SimilarLine | undefined;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const candidate = (lines[i] as string).trim();
    if (candidate === '') continue;
    const short = candidate.slice(0, COMPARE_CHARS);
    // The distance is at least the difference in length: skip lines that cannot beat the best.
    const longest = Math.max(needle.length, short.length);
    if (best !== undefined && 1 - Math.abs(needle.length - short.length) / longest <= best.similarity) continue;
    const similarity = 1 - levenshtein(needle, short) / longest;
    if (best === undefined || similarity > best.similarity) best = { line: i + 1, text: (lines[i] as string).replace(/\r$/, ''), similarity };
  }
  return best !== undefined && best.similarity >= 1 / 3 ? best : undefined;
}

function levenshtein(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + cost);
    }
    previous = current;
  }
  return previous[b.length] as number;
}

/**
 * Shortens `text` to about `maxChars`, keeping its head and its tail (cut at line ends when one
 * is near) with a marker saying how many lines (or characters) were left out between them.
 */
export function shortenText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const half = Math.max(1, Math.floor(maxChars / 2));
  let head = text.slice(0, half);
  let tail = text.slice(text.length - half);
  const headBreak = head.lastIndexOf('\n');
  if (headBreak >= half / 2) head = head.slice(0, headBreak + 1);
  const tailBreak = tail.indexOf('\n');
  if (tailBreak >= 0 && tailBreak < half / 2) tail = tail.slice(tailBreak + 1);
  const omitted = text.slice(head.length, text.length - tail.length);
  let lines = 0;
  for (let i = omitted.indexOf('\n'); i >= 0; i = omitted.indexOf('\n', i + 1)) lines++;
  const marker = lines > 0 ? `[... ${lines} lines truncated ...]` : `[... ${omitted.length} characters truncated ...]`;
  return `${head}${head.endsWith('\n') ? '' : '\n'}${marker}\n${tail}`;
}

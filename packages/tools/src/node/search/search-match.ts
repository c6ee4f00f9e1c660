/** One matching line. */
export interface SearchMatch {
  /** Relative to the workspace, `/`-separated. */
  path: string;
  /** 1-based. */
  line: number;
  text: string;
}

/** What a search engine is asked. */
export interface SearchQuery {
  pattern: string;
  ignoreCase: boolean;
  /** A glob over workspace-relative paths (or base names when it has no `/`). */
  include?: string;
  /** Where to search, relative to the workspace (`.` for all of it). */
  target: string;
  /** The workspace's real path; engines run there. */
  root: string;
  /** Stop after this many matches (the engine may find one more, to tell a cut list). */
  limit: number;
  signal: AbortSignal;
}

/** The matches found, or why the search could not run (a bad pattern). */
export type SearchOutcome = { matches: SearchMatch[]; truncated: boolean } | { error: string };

/** Longest line text kept per match. */
export const MAX_MATCH_CHARS = 300;

/** Cuts a matched line to {@link MAX_MATCH_CHARS}. */
export function clipLine(text: string): string {
  const line = text.replace(/\r$/, '');
  return line.length > MAX_MATCH_CHARS ? `${line.slice(0, MAX_MATCH_CHARS)}…` : line;
}

/** A page of a paginated MCP list. */
export interface Page<T> {
  items: T[];
  nextCursor?: string | undefined;
}

/** Pages followed before a listing is taken to loop. */
const MAX_PAGES = 1000;

/**
 * Every item of a paginated MCP list (`tools/list`, `resources/list`, `prompts/list`…): fetches
 * pages until one has no `nextCursor`. Throws when a server repeats a cursor or never stops.
 */
export async function listAll<T>(fetchPage: (cursor: string | undefined) => Promise<Page<T>>): Promise<T[]> {
  const items: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await fetchPage(cursor);
    items.push(...result.items);
    if (result.nextCursor === undefined || result.nextCursor === '') return items;
    if (seen.has(result.nextCursor)) throw new Error(`the server repeated the cursor ${JSON.stringify(result.nextCursor)} while paginating`);
    seen.add(result.nextCursor);
    cursor = result.nextCursor;
  }
  throw new Error(`the server returned more than ${MAX_PAGES} pages`);
}

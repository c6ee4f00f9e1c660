import { Box, Text } from 'ink';
import { blockRows } from '../block-rows.js';
import type { Block } from '../chat-state.js';

/** The conversation's rows at `width`: every block, with a blank row between them. */
export function conversationRows(blocks: readonly Block[], options: { width: number; entry: string; selected: number | undefined }): string[] {
  // A reply that only called tools has nothing to show but its tool blocks.
  const shown = blocks.filter((b) => b.kind !== 'assistant' || b.streaming || b.text !== '' || b.thinking !== '');
  return shown.flatMap((block, i) => [...(i === 0 ? [] : ['']), ...blockRows(block, options)]);
}

/** The scrollable conversation: the last `height` rows of `rows`, or earlier ones `scroll` rows up from the bottom. */
export function ConversationView({ rows, height, scroll }: { rows: readonly string[]; height: number; scroll: number }) {
  const end = Math.max(0, rows.length - scroll);
  const scrolled = scroll > 0 && end > height;
  // Scrolled up: the top row says there is more above.
  const shown = rows.slice(Math.max(0, end - (scrolled ? height - 1 : height)), end);
  return (
    <Box flexDirection="column" height={height} overflow="hidden">
      {scrolled ? <Text color="gray">{`↑ ${end - shown.length} more rows · ${scroll} rows below (PgDn, ↓, wheel)`}</Text> : null}
      {shown.map((row, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows of the viewport, by position
        <Text key={i} wrap="truncate-end">
          {row === '' ? '\u00a0' : row}
        </Text>
      ))}
    </Box>
  );
}

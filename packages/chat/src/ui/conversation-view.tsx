import { Box, Text } from 'ink';
import { blockRows, STREAM_CURSOR } from '../block-rows.js';
import type { Block } from '../chat-state.js';

/** The conversation's rows at `width`: every block, with a blank row between them. */
export function conversationRows(
  blocks: readonly Block[],
  options: { width: number; entry: string; selected: number | undefined; running?: boolean },
): string[] {
  // A reply that only called tools has nothing to show but its tool blocks.
  const shown = blocks.filter((b) => b.kind !== 'assistant' || b.streaming || b.text !== '' || b.thinking !== '');
  const rows = shown.flatMap((block, i) => [...(i === 0 ? [] : ['']), ...blockRows(block, options)]);
  // While the agent works and no reply streams (the model has not answered yet, tools run), a cursor says so.
  const last = shown.at(-1);
  const streaming = last?.kind === 'assistant' && last.streaming;
  return options.running === true && !streaming ? [...rows, '', STREAM_CURSOR] : rows;
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

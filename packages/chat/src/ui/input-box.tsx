import { Box, Text } from 'ink';

/** The input editor: a rule, then the text typed so far (several lines), a prompt and a cursor. */
export function InputBox({ text, width, label, active }: { text: string; width: number; label: string; active: boolean }) {
  const lines = text.split('\n');
  return (
    <Box flexDirection="column">
      <Text color="gray">{'─'.repeat(Math.max(1, width))}</Text>
      {lines.map((line, i) => (
        // Lines are positional: the editor only appends and removes at the end.
        // biome-ignore lint/suspicious/noArrayIndexKey: rows of one text, in order
        <Text key={i} wrap="wrap">
          <Text color="cyan" bold>
            {i === 0 ? label : ' '.repeat(label.length)}
          </Text>
          {line}
          {i === lines.length - 1 && active ? <Text inverse> </Text> : null}
        </Text>
      ))}
    </Box>
  );
}

import { Box, Text } from 'ink';
import stringWidth from 'string-width';
import { approvalChoices } from '../chat-actions.js';
import type { ApprovalMode, PendingAsk } from '../chat-state.js';

/** The text lines of an ask: a permission request's question and its answers by key, or a question to answer in the input editor. */
export function askLines(ask: PendingAsk, approval: ApprovalMode, entry: string): string[] {
  const who = ask.path === entry ? '' : `${ask.path} · `;
  if (ask.kind === 'question') return [`? ${who}${ask.question}  (type the answer, Enter sends)`];
  const target = typeof ask.args['path'] === 'string' ? ask.args['path'] : typeof ask.args['command'] === 'string' ? ask.args['command'] : '';
  return [
    `? ${who}Allow ${ask.toolName}${target === '' ? '' : ` ${target}`}?`,
    approvalChoices(approval)
      .map((choice) => `[${choice.key}] ${choice.label}`)
      .join('   '),
  ];
}

/** How many terminal rows `lines` take at `width` (long lines wrap). */
export function rowsAt(lines: readonly string[], width: number): number {
  return lines.reduce((rows, line) => rows + Math.max(1, Math.ceil(stringWidth(line) / Math.max(1, width))), 0);
}

/** What the agent waits for, above the input editor. */
export function AskPrompt({ ask, approval, entry }: { ask: PendingAsk; approval: ApprovalMode; entry: string }) {
  const [first = '', ...rest] = askLines(ask, approval, entry);
  return (
    <Box flexDirection="column">
      <Text color="magenta" bold wrap="wrap">
        {first}
      </Text>
      {rest.map((line) => (
        <Text key={line} wrap="wrap">
          {line.split(/(\[\w\])/).map((part, i) =>
            /^\[\w\]$/.test(part) ? (
              // biome-ignore lint/suspicious/noArrayIndexKey: parts of one line, in order
              <Text key={i} bold color="magenta">
                {part}
              </Text>
            ) : (
              part
            ),
          )}
        </Text>
      ))}
    </Box>
  );
}

import { Box, Text } from 'ink';
import { approvalChoices } from '../chat-actions.js';
import type { ApprovalMode, PendingAsk } from '../chat-state.js';

/** What the agent waits for: a permission request with its answers by key, or a question the input editor answers. */
export function AskPrompt({ ask, approval, entry }: { ask: PendingAsk; approval: ApprovalMode; entry: string }) {
  const who = ask.path === entry ? '' : `${ask.path} · `;
  if (ask.kind === 'question') {
    return (
      <Box>
        <Text color="magenta" wrap="wrap">{`? ${who}${ask.question}  (type the answer, Enter sends)`}</Text>
      </Box>
    );
  }
  const target = typeof ask.args['path'] === 'string' ? ask.args['path'] : typeof ask.args['command'] === 'string' ? ask.args['command'] : '';
  return (
    <Box flexDirection="column">
      <Text color="magenta" bold wrap="truncate-end">{`? ${who}Allow ${ask.toolName}${target === '' ? '' : ` ${target}`}?`}</Text>
      <Text wrap="wrap">
        {approvalChoices(approval).map((choice) => (
          <Text key={choice.key}>
            <Text bold color="magenta">
              {`[${choice.key}]`}
            </Text>
            {` ${choice.label}   `}
          </Text>
        ))}
      </Text>
    </Box>
  );
}

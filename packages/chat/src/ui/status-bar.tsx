import { Box, Text } from 'ink';
import type { ChatState } from '../chat-state.js';
import { gaugeBar, gaugeLevel, gaugePercent } from '../context-gauge.js';

/** The status bar: model, mode, agent state, the context gauge (early, so a narrow terminal keeps it), turns, tokens, cost and approvals. */
export function StatusBar({ state }: { state: ChatState }) {
  const percent = gaugePercent(state.context);
  const known = state.context.window !== undefined;
  return (
    <Box>
      <Text wrap="truncate-end">
        <Text bold>{state.model}</Text>
        {' · '}
        {state.mode === 'plan' ? (
          <Text color="magenta" bold>
            PLAN
          </Text>
        ) : (
          <Text color="cyan">EXECUTE</Text>
        )}
        {' · '}
        <Text color={state.running ? 'yellow' : 'gray'}>{state.running ? state.agentState : 'idle'}</Text>
        {' · ctx '}
        {known ? <Text color={gaugeLevel(percent)}>{`${gaugeBar(percent, 10)} ${percent}%`}</Text> : <Text color="gray">unknown window</Text>}
        {` · ${state.turns} turn${state.turns === 1 ? '' : 's'} · ${state.tokens} tok · $${state.cost.toFixed(4)} · approve ${state.approval}`}
      </Text>
    </Box>
  );
}

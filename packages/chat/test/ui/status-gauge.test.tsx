/**
 * The status bar's context gauge: the estimated fill of the model's window, green below 60%,
 * yellow from 60% to 85%, red above 85% (checked at 59, 60, 85 and 86%); it shows the model, the
 * mode, the agent state, turns, tokens and cost.
 */
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { gaugeBar, initialChatState } from '../../src/index.js';
import { StatusBar } from '../../src/ui/status-bar.js';

const GREEN = '\u001b[32m';
const YELLOW = '\u001b[33m';
const RED = '\u001b[31m';

function gauge(percent: number): string {
  const state = {
    ...initialChatState({ entry: 'assistant', model: 'anthropic:claude-sonnet-4-5', contextWindow: 1000 }),
    context: { tokens: percent * 10, window: 1000 },
  };
  const app = render(<StatusBar state={state} />);
  const frame = app.lastFrame() ?? '';
  app.unmount();
  return frame;
}

describe('context gauge', () => {
  it.each([
    [59, 'green', GREEN],
    [60, 'yellow', YELLOW],
    [85, 'yellow', YELLOW],
    [86, 'red', RED],
  ])('at %i%% is drawn in %s', (percent, _name, colour) => {
    const frame = gauge(percent);
    expect(frame).toContain(`${colour}`);
    expect(frame).toContain(`${colour}${gaugeBar(percent, 10)} ${percent}%`);
    for (const other of [GREEN, YELLOW, RED].filter((c) => c !== colour)) expect(frame).not.toContain(other);
  });

  it('shows the model, mode, state, turns, tokens and cost', () => {
    const state = {
      ...initialChatState({ entry: 'assistant', model: 'openai:gpt-4.1-mini' }),
      mode: 'plan' as const,
      running: true,
      agentState: 'tool_executing' as const,
      turns: 3,
      tokens: 1234,
      cost: 0.0123,
    };
    const app = render(<StatusBar state={state} />);
    expect(app.lastFrame()?.replace(/\u001b\[\d+m/g, '')).toMatch(
      /^openai:gpt-4\.1-mini · PLAN · tool_executing · ctx unknown window · 3 turns · 1234 tok · \$0\.0123 · a/,
    );
    app.unmount();
  });
});

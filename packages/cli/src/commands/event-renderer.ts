import type { AgentEvent, AgentResult } from '@troupe/core';
import type { Writer } from '../cli-io.js';

/** Shows a run's events as they arrive, then its end. */
export interface EventRenderer {
  onEvent(event: AgentEvent): void;
  end(result: AgentResult): void;
}

/** Every event as one JSON line on `out`. */
export function jsonRenderer(out: Writer): EventRenderer {
  return {
    onEvent: (event) => out(`${JSON.stringify(event)}\n`),
    end: () => undefined,
  };
}

/**
 * The assistant's text, streamed as it arrives. Each assistant message ends its line when it ends
 * (a failed attempt too: its partial text stays, the retry streams again below, noted on `err`);
 * output always ends with a newline.
 */
export function textRenderer(out: Writer, err: Writer): EventRenderer {
  let column = 0;
  const write = (text: string): void => {
    if (text.length === 0) return;
    out(text);
    column = text.endsWith('\n') ? 0 : column + text.length;
  };
  const newline = (): void => {
    if (column > 0) write('\n');
  };
  return {
    onEvent(event) {
      switch (event.type) {
        case 'message_start':
          if (event.role === 'assistant') newline();
          break;
        case 'message_update':
          if (event.delta.type === 'text_delta') write(event.delta.delta);
          break;
        case 'message_end':
          // The line ends with the message, before a tool's note or another actor's line is written.
          if (event.role === 'assistant') newline();
          break;
        case 'retry':
          err(`troupe: retrying in ${(event.delayMs / 1000).toFixed(1)}s after ${event.error.kind}: ${event.error.message} (attempt ${event.attempt})\n`);
          break;
        default:
          break;
      }
    },
    end() {
      newline();
    },
  };
}

import { emptyUsage, type AssistantMessage, type Provider, type ProviderEvent, type ProviderRequest } from '@troupe/core';

/**
 * A provider the test drives step by step: each `say` streams one text delta of the reply being
 * written, `end` finishes it. Model calls wait until the test speaks, so what the UI shows between
 * two deltas can be asserted without any timing.
 */
export function gatedProvider() {
  const pending: ProviderEvent[] = [];
  let wake: (() => void) | undefined;
  let text = '';
  const requests: ProviderRequest[] = [];
  const push = (event: ProviderEvent): void => {
    pending.push(event);
    wake?.();
  };
  const provider: Provider = {
    name: 'gated',
    async *stream(request, options) {
      requests.push(request);
      text = '';
      yield { type: 'start' };
      for (;;) {
        while (pending.length === 0) {
          if (options.signal?.aborted === true) {
            yield { type: 'error', error: { kind: 'aborted', message: 'aborted', retryable: false } };
            return;
          }
          await new Promise<void>((resolve) => {
            wake = resolve;
            options.signal?.addEventListener('abort', () => resolve(), { once: true });
          });
        }
        const event = pending.shift() as ProviderEvent;
        yield event;
        if (event.type === 'done' || event.type === 'error') return;
      }
    },
  };
  return {
    provider,
    requests,
    say(delta: string) {
      if (text === '') push({ type: 'text_start', index: 0 });
      text += delta;
      push({ type: 'text_delta', index: 0, delta });
    },
    end() {
      const message: AssistantMessage = {
        role: 'assistant',
        content: [{ type: 'text', text }],
        stopReason: 'stop',
        usage: emptyUsage(),
        model: 'gated:test',
        timestamp: 0,
      };
      push({ type: 'text_end', index: 0 });
      push({ type: 'done', message });
    },
  };
}

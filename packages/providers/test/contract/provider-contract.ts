import { Agent, noRetry, type AssistantContent, type Provider, type ProviderEvent, type ProviderRequest, type Tool, type ToolCall } from '@troupe/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ModelInfo } from '../../src/catalog/model-info.js';
import type { ApiKeyFunction } from '../../src/provider-options.js';
import type { ReplayServer } from '../support/replay-server.js';
import type { VendorWire, WireUsage } from '../wire/vendor-wire.js';

/** A provider implementation under test, against its vendor's replayed wire format. */
export interface ContractSubject {
  wire: VendorWire;
  /** The provider name (what `message.model` starts with). */
  name: string;
  /** The model requests name. */
  model: string;
  /** Its catalog entry, to check cost; `undefined` when calls are expected to have an unknown cost. */
  catalogEntry: ModelInfo | undefined;
  /** The API key the provider is given (never to appear in errors). */
  apiKey: string;
  startServer(): Promise<ReplayServer>;
  /** The provider under test, pointed at `baseUrl` (with the key function of `options`, when given). */
  provider(baseUrl: string, options?: { apiKey?: ApiKeyFunction }): Provider;
}

async function collect(events: AsyncIterable<ProviderEvent>): Promise<ProviderEvent[]> {
  const out: ProviderEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

function request(model: string, extra: Partial<ProviderRequest> = {}): ProviderRequest {
  return {
    model,
    systemPrompt: 'You are terse.',
    messages: [{ role: 'user', content: 'Say hello.', timestamp: 1 }],
    tools: [
      {
        name: 'add',
        description: 'Adds two numbers.',
        parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
      },
    ],
    ...extra,
  };
}

function ofType<T extends ProviderEvent['type']>(events: readonly ProviderEvent[], type: T): Extract<ProviderEvent, { type: T }>[] {
  return events.filter((e): e is Extract<ProviderEvent, { type: T }> => e.type === type);
}

function last(events: readonly ProviderEvent[]): ProviderEvent | undefined {
  return events.at(-1);
}

function doneMessage(events: readonly ProviderEvent[]): Extract<ProviderEvent, { type: 'done' }>['message'] {
  const end = last(events);
  if (end?.type !== 'done') throw new Error(`expected done, got ${JSON.stringify(end)}`);
  return end.message;
}

function failureOf(events: readonly ProviderEvent[]): Extract<ProviderEvent, { type: 'error' }>['error'] {
  const end = last(events);
  if (end?.type !== 'error') throw new Error(`expected error, got ${JSON.stringify(end)}`);
  return end.error;
}

/** Start first, exactly one terminal event last, every block bracketed by its start and end. */
function expectWellFormed(events: readonly ProviderEvent[]): void {
  expect(events[0]?.type).toBe('start');
  const terminal = events.filter((e) => e.type === 'done' || e.type === 'error');
  expect(terminal).toHaveLength(1);
  expect(last(events)).toBe(terminal[0]);
  const open = new Set<number>();
  for (const e of events) {
    if (e.type.endsWith('_start') && 'index' in e) open.add(e.index);
    else if (e.type.endsWith('_delta') && 'index' in e) expect(open.has(e.index)).toBe(true);
    else if (e.type.endsWith('_end') && 'index' in e) expect(open.delete(e.index)).toBe(true);
  }
  if (last(events)?.type === 'done') expect(open.size).toBe(0);
}

/**
 * The content without signature-only thinking parts: vendors that sign other parts (Gemini's
 * thought signatures on function calls) get them kept as redacted, empty thinking parts.
 */
function visible(content: readonly AssistantContent[]): AssistantContent[] {
  return content.filter((part) => !(part.type === 'thinking' && part.thinking === '' && part.redacted === true));
}

const USAGE: WireUsage = { input: 1200, cached: 200, output: 80 };

/**
 * The one contract every provider honours, run against each vendor's replayed wire format:
 * streaming text, tool calls (split arguments, parallel calls, broken JSON), thinking, usage and
 * cost (reasoning tokens apart where the vendor reports them), refusals and content filters as the
 * `refusal` stop reason, error classification (overflow, auth, rate limit with retry-after, 5xx, a dropped
 * connection), abort mid-stream closing the connection, keys kept out of errors, and a full tool
 * round trip through the core `Agent` loop.
 */
export function describeProviderContract(subject: ContractSubject): void {
  const { wire } = subject;
  describe(`${wire.label} provider contract`, () => {
    let server: ReplayServer;
    let provider: Provider;
    const signal = (): AbortSignal => new AbortController().signal;

    beforeAll(async () => {
      server = await subject.startServer();
      provider = subject.provider(server.url);
    });
    afterAll(async () => {
      await server.close();
    });
    beforeEach(() => server.reset());

    it('streams plain text: start, text_start, deltas, text_end, done', async () => {
      server.enqueue({ events: wire.text(['Hel', 'lo', ' there', '.'], USAGE) });
      const events = await collect(provider.stream(request(subject.model), { signal: signal() }));
      expectWellFormed(events);
      expect(ofType(events, 'text_delta').map((e) => e.delta)).toEqual(['Hel', 'lo', ' there', '.']);
      const message = doneMessage(events);
      expect(message.content).toEqual([{ type: 'text', text: 'Hello there.' }]);
      expect(message.stopReason).toBe('stop');
      expect(message.model).toBe(`${subject.name}:${subject.model}`);
      const body = server.requests[0]?.body;
      expect(wire.systemPrompt(body)).toBe('You are terse.');
      expect(wire.lastUserText(body)).toBe('Say hello.');
    });

    it('streams a tool call whose arguments arrive in many pieces, parsed once complete', async () => {
      const pieces = ['{"', 'a', '": ', '2', ', "b', '": 3', '}'];
      server.enqueue({ events: wire.toolCalls([{ id: 'call_a1', name: 'add', argumentChunks: pieces }], USAGE) });
      const events = await collect(provider.stream(request(subject.model), { signal: signal() }));
      expectWellFormed(events);
      const [started] = ofType(events, 'toolcall_start');
      expect(started).toMatchObject({ id: wire.toolCallId('call_a1'), name: 'add' });
      const deltas = ofType(events, 'toolcall_delta').map((e) => e.delta);
      if (wire.streamsArguments) expect(deltas).toEqual(pieces);
      else expect(deltas).toHaveLength(1);
      expect(JSON.parse(deltas.join(''))).toEqual({ a: 2, b: 3 });
      const message = doneMessage(events);
      expect(visible(message.content)).toEqual([{ type: 'toolCall', id: wire.toolCallId('call_a1'), name: 'add', arguments: { a: 2, b: 3 } }]);
      expect(message.stopReason).toBe('toolUse');
    });

    it('streams two parallel tool calls as two blocks, in order', async () => {
      server.enqueue({
        events: wire.toolCalls(
          [
            { id: 'call_p1', name: 'add', argumentChunks: ['{"a": 1,', ' "b": 2}'] },
            { id: 'call_p2', name: 'add', argumentChunks: ['{"a": 3,', ' "b": 4}'] },
          ],
          USAGE,
        ),
      });
      const events = await collect(provider.stream(request(subject.model), { signal: signal() }));
      expectWellFormed(events);
      const starts = ofType(events, 'toolcall_start');
      expect(starts.map((e) => e.id)).toEqual([wire.toolCallId('call_p1'), wire.toolCallId('call_p2')]);
      const content = doneMessage(events).content;
      expect(starts.map((e) => content[e.index]?.type)).toEqual(['toolCall', 'toolCall']);
      const calls = visible(content) as ToolCall[];
      expect(calls.map((c) => c.arguments)).toEqual([
        { a: 1, b: 2 },
        { a: 3, b: 4 },
      ]);
    });

    it('keeps broken argument JSON raw, with empty arguments, instead of failing', async () => {
      if (!wire.streamsArguments) return; // The vendor sends arguments as parsed JSON: it cannot send broken JSON.
      server.enqueue({ events: wire.toolCalls([{ id: 'call_b1', name: 'add', argumentChunks: ['{"a": 2, ', '"b": '] }], USAGE) });
      const events = await collect(provider.stream(request(subject.model), { signal: signal() }));
      const [call] = visible(doneMessage(events).content) as ToolCall[];
      expect(call).toEqual({ type: 'toolCall', id: wire.toolCallId('call_b1'), name: 'add', arguments: {}, rawArguments: '{"a": 2, "b": ' });
    });

    it('streams thinking before the text, keeping the vendor signature', async () => {
      server.enqueue({ events: wire.thinking(['Two plus ', 'three.'], 'c2lnbmF0dXJl', ['5'], USAGE) });
      const events = await collect(provider.stream(request(subject.model, { thinking: 'medium' }), { signal: signal() }));
      expectWellFormed(events);
      expect(events.map((e) => e.type).filter((t) => t.startsWith('thinking') || t.startsWith('text'))).toEqual([
        'thinking_start',
        'thinking_delta',
        'thinking_delta',
        'thinking_end',
        'text_start',
        'text_delta',
        'text_end',
      ]);
      const [thinking, text] = doneMessage(events).content;
      expect(thinking).toMatchObject({ type: 'thinking', thinking: 'Two plus three.' });
      const signature = wire.keptSignature('c2lnbmF0dXJl');
      if (signature !== undefined) expect(thinking).toMatchObject({ signature });
      expect(text).toEqual({ type: 'text', text: '5' });
    });

    it('reports usage split into fresh input, cache reads and output, with cost from the catalog', async () => {
      server.enqueue({ events: wire.text(['ok'], USAGE) });
      const { usage } = doneMessage(await collect(provider.stream(request(subject.model), { signal: signal() })));
      expect(usage).toMatchObject({ input: 1000, cacheRead: 200, cacheWrite: 0, output: 80, totalTokens: 1280 });
      const entry = subject.catalogEntry;
      if (entry === undefined) {
        expect(usage.cost.unknown).toBe(true);
        expect(usage.cost.total).toBe(0);
      } else {
        const p = entry.prices;
        expect(usage.cost.unknown).toBeUndefined();
        expect(usage.cost.total).toBeCloseTo((1000 * p.input + 200 * p.cacheRead + 80 * p.output) / 1e6, 12);
        expect(usage.cost.total).toBeGreaterThan(0);
      }
    });

    it('reports reasoning tokens apart where the vendor does, as part of the output', async () => {
      server.enqueue({ events: wire.text(['ok'], { ...USAGE, reasoning: 50 }) });
      const { usage } = doneMessage(await collect(provider.stream(request(subject.model), { signal: signal() })));
      expect(usage).toMatchObject({ input: 1000, cacheRead: 200, output: 80, totalTokens: 1280 });
      if (wire.reportsReasoning) expect(usage.reasoning).toBe(50);
      else expect(usage).not.toHaveProperty('reasoning');
    });

    it('ends a reply the vendor refused or filtered with stop reason refusal, and the run with it', async () => {
      server.enqueue({ events: wire.refusal(["I can't help", ' with that.'], USAGE) });
      const events = await collect(provider.stream(request(subject.model), { signal: signal() }));
      expectWellFormed(events);
      const message = doneMessage(events);
      expect(message.stopReason).toBe('refusal');
      expect(message.content).toEqual([{ type: 'text', text: "I can't help with that." }]);
      expect(message.errorMessage).toEqual(expect.any(String));
      server.enqueue({ events: wire.refusal(['No.'], USAGE) });
      const agent = new Agent({ provider, model: subject.model, retry: noRetry });
      const result = await agent.prompt('Something it will not do.');
      expect(result.stopReason).toBe('refusal');
      expect(result.text).toBe('No.');
    });

    it('classifies a context overflow (400) as overflow, not retryable', async () => {
      const { status, body } = wire.overflowError();
      server.enqueue({ status, body });
      const events = await collect(provider.stream(request(subject.model), { signal: signal() }));
      expect(events.map((e) => e.type)).toEqual(['error']);
      expect(failureOf(events)).toMatchObject({ kind: 'overflow', retryable: false, status });
    });

    it('classifies 401 as auth and keeps the key out of the message even when the server echoes it', async () => {
      const { status, body } = wire.authError(subject.apiKey);
      server.enqueue({ status, body });
      const failure = failureOf(await collect(provider.stream(request(subject.model), { signal: signal() })));
      expect(failure).toMatchObject({ kind: 'auth', retryable: false, status: 401 });
      expect(failure.message).not.toContain(subject.apiKey);
      expect(failure.message).not.toContain(subject.apiKey.slice(-12));
    });

    it('calls an apiKey function for each request, sends its key, and keeps it out of errors', async () => {
      let issued = 0;
      const keyed = subject.provider(server.url, { apiKey: async () => `sk-short-lived-${++issued}-abcdefghijklmnop` });
      server.enqueue({ events: wire.text(['one'], USAGE) });
      server.enqueue({ events: wire.text(['two'], USAGE) });
      expect(doneMessage(await collect(keyed.stream(request(subject.model), { signal: signal() }))).content).toEqual([{ type: 'text', text: 'one' }]);
      expect(doneMessage(await collect(keyed.stream(request(subject.model), { signal: signal() }))).content).toEqual([{ type: 'text', text: 'two' }]);
      expect(issued).toBe(2);
      const sent = server.requests.map((r) => Object.values(r.headers).join(' '));
      expect(sent[0]).toContain('sk-short-lived-1-abcdefghijklmnop');
      expect(sent[1]).toContain('sk-short-lived-2-abcdefghijklmnop');
      expect(sent[1]).not.toContain('sk-short-lived-1-');
      const { status, body } = wire.authError('sk-short-lived-3-abcdefghijklmnop');
      server.enqueue({ status, body });
      const failure = failureOf(await collect(keyed.stream(request(subject.model), { signal: signal() })));
      expect(failure.kind).toBe('auth');
      expect(failure.message).not.toContain('sk-short-lived-3');
    });

    it('fails a call as auth, sending nothing, when the apiKey function throws or gives no key', async () => {
      const broken = subject.provider(server.url, { apiKey: () => Promise.reject(new Error('token service down')) });
      const failure = failureOf(await collect(broken.stream(request(subject.model), { signal: signal() })));
      expect(failure).toMatchObject({ kind: 'auth', retryable: false, message: `the ${subject.name} apiKey function failed: token service down` });
      const empty = subject.provider(server.url, { apiKey: () => '' });
      expect(failureOf(await collect(empty.stream(request(subject.model), { signal: signal() }))).message).toBe(
        `the ${subject.name} apiKey function returned no key`,
      );
      expect(server.requests).toHaveLength(0);
    });

    it('classifies 429 as rate_limited with the retry-after delay', async () => {
      const error = wire.rateLimitError();
      server.enqueue({ status: error.status, body: error.body, ...(error.headers === undefined ? {} : { headers: error.headers }) });
      const failure = failureOf(await collect(provider.stream(request(subject.model), { signal: signal() })));
      expect(failure).toMatchObject({ kind: 'rate_limited', retryable: true, retryAfterMs: 7000, status: 429 });
    });

    it('classifies 500 as a retryable api failure', async () => {
      const { status, body } = wire.serverError();
      server.enqueue({ status, body });
      expect(failureOf(await collect(provider.stream(request(subject.model), { signal: signal() })))).toMatchObject({
        kind: 'api',
        retryable: true,
        status: 500,
      });
    });

    it('ends a connection dropped mid-stream with a retryable network failure after the partial deltas', async () => {
      server.enqueue({ events: wire.partialText(['Par', 'tial']), drop: true });
      const events = await collect(provider.stream(request(subject.model), { signal: signal() }));
      expect(events[0]?.type).toBe('start');
      expect(
        ofType(events, 'text_delta')
          .map((e) => e.delta)
          .join(''),
      ).toBe('Partial');
      expect(failureOf(events)).toMatchObject({ kind: 'network', retryable: true });
    });

    it('fails a refused connection as a retryable network failure, without a start', async () => {
      const closed = subject.provider('http://127.0.0.1:1');
      const events = await collect(closed.stream(request(subject.model), { signal: signal() }));
      expect(events.map((e) => e.type)).toEqual(['error']);
      expect(failureOf(events)).toMatchObject({ kind: 'network', retryable: true });
    });

    it('stops the HTTP stream at once when aborted mid-stream, ending with aborted', async () => {
      server.enqueue({ events: wire.partialText(['Hel', 'lo']), hold: true });
      const controller = new AbortController();
      const events: ProviderEvent[] = [];
      for await (const event of provider.stream(request(subject.model), { signal: controller.signal })) {
        events.push(event);
        if (event.type === 'text_delta') controller.abort();
      }
      expect(failureOf(events)).toEqual({ kind: 'aborted', message: 'request aborted', retryable: false });
      await server.connectionClosed(0);
    });

    it('ends at once with aborted when the signal fired before the call', async () => {
      const controller = new AbortController();
      controller.abort();
      const events = await collect(provider.stream(request(subject.model), { signal: controller.signal }));
      expect(events).toEqual([{ type: 'error', error: { kind: 'aborted', message: 'request aborted', retryable: false } }]);
      expect(server.requests).toHaveLength(0);
    });

    it('runs a tool round trip through the core Agent loop', async () => {
      server.enqueue(
        { events: wire.toolCalls([{ id: 'call_rt1', name: 'add', argumentChunks: ['{"a": 2,', ' "b": 3}'] }], USAGE) },
        { events: wire.text(['The sum ', 'is 5.'], USAGE) },
      );
      const add: Tool = {
        name: 'add',
        description: 'Adds two numbers.',
        parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
        readOnly: true,
        execute: (args) => ({ content: String(Number(args['a']) + Number(args['b'])) }),
      };
      const agent = new Agent({ provider, model: subject.model, systemPrompt: 'You add numbers.', tools: [add], retry: noRetry });
      try {
        const result = await agent.prompt('What is 2 + 3?');
        expect(result.stopReason).toBe('stop');
        expect(result.text).toBe('The sum is 5.');
        expect(result.turns).toBe(2);
        expect(server.requests).toHaveLength(2);
        const second = server.requests[1]?.body;
        expect(wire.toolResultText(second, 'call_rt1', 'add')).toBe('5');
        expect(wire.systemPrompt(second)).toBe('You add numbers.');
        expect(result.usage.totalTokens).toBe(2 * 1280);
      } finally {
        agent.dispose();
      }
    });
  });
}

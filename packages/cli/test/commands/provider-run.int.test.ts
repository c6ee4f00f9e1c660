/**
 * Proves `troupe run` (the real command, as a child process) with a vendor model reached through
 * `baseUrl` in the graph file, as the README documents: against a local server replaying the
 * OpenAI Chat Completions stream it runs the tool round trip (echo tool, then the answer) and
 * prints the text and summary; `--model` switches the model and keeps the base URL; the API key
 * from `${REPLAY_KEY}` is sent to the server but never printed, not even when the server echoes it
 * in a 401; and `troupe models` lists the catalog.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { spawnTroupe } from '../spawn-troupe.js';

const KEY = 'sk-replay-0123456789abcdefghij';

function chunk(delta: Record<string, unknown>, finish: string | null = null): string {
  return `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'replay', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
}

const USAGE = `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'replay', choices: [], usage: { prompt_tokens: 30, completion_tokens: 7, total_tokens: 37 } })}\n\ndata: [DONE]\n\n`;

/** The two replies of the round trip: an echo tool call in pieces, then the answer. */
const REPLIES = [
  [
    chunk({ role: 'assistant', content: 'Let me echo.' }),
    chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'echo', arguments: '{"te' } }] }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: 'xt": "ping"}' } }] }),
    chunk({}, 'tool_calls'),
    USAGE,
  ],
  [chunk({ role: 'assistant', content: 'The echo ' }), chunk({ content: 'said ping.' }), chunk({}, 'stop'), USAGE],
];

interface Seen {
  url: string;
  authorization: string | undefined;
  body: { model?: string; max_tokens?: number; messages?: { role: string; content: unknown }[] };
}

describe('troupe run with a provider behind a base URL', () => {
  let server: Server;
  let url = '';
  const seen: Seen[] = [];
  let queue: (string[] | 'unauthorized')[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let text = '';
      req.setEncoding('utf8').on('data', (c: string) => (text += c));
      req.on('end', () => {
        seen.push({ url: req.url ?? '', authorization: req.headers.authorization, body: JSON.parse(text) as Seen['body'] });
        const next = queue.shift();
        if (next === 'unauthorized' || next === undefined) {
          res.writeHead(401, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { message: `Incorrect API key provided: ${KEY}.`, type: 'invalid_request_error', code: 'invalid_api_key' } }));
          return;
        }
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        for (const frame of next) res.write(frame);
        res.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  beforeEach(() => {
    seen.length = 0;
    queue = [];
  });

  const env = (): Record<string, string> => ({ REPLAY_URL: url, REPLAY_KEY: KEY });

  it('runs the tool round trip against the server', async () => {
    queue = [...REPLIES];
    const result = await spawnTroupe(['run', 'replay-server.yaml', '--input', 'Say ping'], { env: env() });
    expect(result.stderr).toMatch(/\n✓ done · 2 turns · 74 tokens · \$\? · \d+\.\d\ds · run run_\w+\n$/);
    expect(result.stdout).toBe('Let me echo.\nThe echo said ping.\n');
    expect(result.code).toBe(0);
    expect(seen.map((s) => s.url)).toEqual(['/v1/chat/completions', '/v1/chat/completions']);
    expect(seen[0]?.authorization).toBe(`Bearer ${KEY}`);
    expect(seen[0]?.body).toMatchObject({ model: 'replay-model', max_tokens: 256 });
    expect(seen[1]?.body.messages?.at(-1)).toEqual({ role: 'tool', tool_call_id: 'call_1', content: 'ping' });
  });

  it('switches the model with --model, keeping the base URL', async () => {
    queue = [REPLIES[1] ?? []];
    const result = await spawnTroupe(['run', 'replay-server.yaml', '--input', 'x', '--model', 'openai-compatible:other-model'], { env: env() });
    expect(result.code).toBe(0);
    expect(seen[0]?.body.model).toBe('other-model');
  });

  it('reports an auth failure without printing the key', async () => {
    queue = ['unauthorized'];
    const result = await spawnTroupe(['run', 'replay-server.yaml', '--input', 'x', '--json', '--log-level', 'debug'], { env: env() });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('[provider_error]');
    expect(`${result.stdout}${result.stderr}`).not.toContain(KEY);
    expect(`${result.stdout}${result.stderr}`).not.toContain('0123456789abcdefghij');
  });

  it('lists the catalog with troupe models', async () => {
    const result = await spawnTroupe(['models', '--provider', 'anthropic']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^provider\s+model\s+context\s+max out\s+input\s+output\s+cache read\s+cache write/);
    expect(result.stdout).toMatch(/\nanthropic\s+claude-sonnet-4-5\s+200,000\s+64,000\s+3\.00\s+15\.00\s+0\.30\s+3\.75/);
  });
});

/**
 * Proves that a model server on this machine that refuses the connection fails the call at once:
 * a real connection to a closed loopback port, through each local preset (`ollama`, `lmstudio`,
 * `llamacpp`, `vllm`, an `openai-compatible` base URL on localhost or ::1), ends in one
 * non-retryable `network` failure whose message names the server, its URL and the command that
 * starts it, and an `Agent` with the default retry strategy ends its run with that error without
 * a single retry (regression: `ollama:` used to retry for 33 s). The same refused connection from
 * a remote base URL keeps its retryable classification.
 */
import { createServer } from 'node:net';
import { Agent, type ProviderEvent, type ProviderFailure } from '@troupe/core';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { createProvider, parseModelSpec, providerPreset } from '../../src/index.js';
import { classifyFor, isConnectionRefused, isLocalBaseUrl } from '../../src/shared/local-server.js';
import { classifySdkError } from '../../src/shared/sdk-error.js';

/** A loopback port nothing listens on: bound, then closed. */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function failureOf(model: string, baseUrl: string): Promise<ProviderFailure> {
  const provider = createProvider(parseModelSpec(model), { baseUrl, env: {} });
  const events: ProviderEvent[] = [];
  for await (const event of provider.stream(
    { model: 'm', messages: [{ role: 'user', content: 'hi', timestamp: 0 }], tools: [] },
    { signal: new AbortController().signal },
  )) {
    events.push(event);
  }
  const last = events.at(-1);
  if (last?.type !== 'error') throw new Error(`expected an error event, got ${JSON.stringify(last)}`);
  return last.error;
}

describe('a refused connection to a local model server', () => {
  it.each([
    ['ollama:qwen3', '127.0.0.1', ' (ollama serve)'],
    ['lmstudio:qwen3', 'localhost', ' (lms server start)'],
    ['llamacpp:any', '127.0.0.1', ' (llama-server -m <model.gguf>)'],
    ['vllm:qwen3', '127.0.0.1', ' (vllm serve <model>)'],
    ['openai-compatible:qwen3', 'localhost', ''],
  ])('%s on %s fails at once, naming the server and how to start it', async (model, host, start) => {
    const baseUrl = `http://${host}:${await closedPort()}/v1`;
    const failure = await failureOf(model, baseUrl);
    const name = model.split(':')[0];
    expect(failure).toEqual({
      kind: 'network',
      retryable: false,
      message: `cannot reach ${name} at ${baseUrl} (connection refused): is the server running?${start}`,
    });
  });

  it('ends an agent run with the hint and no retry', async () => {
    const baseUrl = `http://127.0.0.1:${await closedPort()}/v1`;
    const agent = new Agent({ provider: createProvider(parseModelSpec('ollama:qwen3'), { baseUrl, env: {} }), model: 'qwen3' });
    const types: string[] = [];
    agent.events$.subscribe((event) => types.push(event.type));
    const result = await agent.prompt('hi');
    expect(result.stopReason).toBe('error');
    expect(result.error?.message).toContain(`cannot reach ollama at ${baseUrl} (connection refused): is the server running? (ollama serve)`);
    expect(types).not.toContain('retry');
  });

  it('leaves the same refused connection from a remote base URL retryable', async () => {
    const client = new OpenAI({ apiKey: 'x', baseURL: `http://127.0.0.1:${await closedPort()}/v1`, maxRetries: 0 });
    const refused = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isConnectionRefused(refused)).toBe(true);
    const local = { name: 'ollama', preset: providerPreset('ollama')!, baseUrl: 'http://127.0.0.1:11434/v1' };
    const remote = { name: 'openrouter', preset: providerPreset('openrouter')!, baseUrl: 'https://openrouter.ai/api/v1' };
    expect(classifyFor(local, classifySdkError)(refused)).toMatchObject({ kind: 'network', retryable: false });
    expect(classifyFor(remote, classifySdkError)(refused)).toMatchObject({ kind: 'network', retryable: true });
  });

  it('tells loopback base URLs from others', () => {
    for (const url of [
      'http://localhost:11434/v1',
      'http://127.0.0.1:8000/v1',
      'http://127.1.2.3/v1',
      'http://[::1]:1234/v1',
      'http://api.localhost/v1',
      'http://0.0.0.0:8080',
    ]) {
      expect(isLocalBaseUrl(url), url).toBe(true);
    }
    for (const url of ['https://api.openai.com/v1', 'http://gpu-box:11434/v1', 'http://10.0.0.5:8000/v1', 'http://localhost.example.com/v1', 'not a url']) {
      expect(isLocalBaseUrl(url), url).toBe(false);
    }
  });
});

/**
 * Proves `troupe models` in-process: the table lists every catalog model with context window,
 * output limit and the four prices per million tokens; `--provider` filters; `--json` prints one
 * parseable object per model; an unknown provider exits 2.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli.js';
import { captureIo } from '../run-cli.js';

describe('troupe models', () => {
  it('prints the catalog as a table', async () => {
    const io = captureIo();
    expect(await runCli(['models'], io)).toBe(0);
    const out = io.stdoutText();
    expect(out).toMatch(/\nopenai\s+gpt-4\.1-mini\s+1,047,576\s+32,768\s+0\.40\s+1\.60\s+0\.10\s+0\.40/);
    expect(out).toMatch(/\ngoogle\s+gemini-2\.5-flash\s+1,048,576\s+65,536/);
    expect(out).toContain('Prices in US dollars per million tokens.');
  });

  it('filters by provider and prints JSON lines', async () => {
    const io = captureIo();
    expect(await runCli(['models', '--provider', 'google', '--json'], io)).toBe(0);
    const rows = io
      .stdoutText()
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { model: string; vendor: string; contextWindow: number });
    expect(rows.length).toBeGreaterThan(2);
    expect(rows.every((r) => r.vendor === 'google' && r.model.startsWith('google:') && r.contextWindow > 0)).toBe(true);
  });

  it('exits 2 for a provider without a catalog', async () => {
    const io = captureIo();
    expect(await runCli(['models', '--provider', 'ollama'], io)).toBe(2);
    expect(io.stderrText()).toBe('troupe models: no catalog for provider "ollama" (catalogs: openai, anthropic, google)\n');
  });
});

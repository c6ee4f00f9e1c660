/**
 * The vendor SDKs (OpenAI, Anthropic) and the MCP SDK are loaded when a graph needs them, not
 * when the runtime is: a `troupe` process whose graph has no such model and no MCP server starts
 * without them (together about 60 MB of memory and most of a second of start-up on a small
 * machine). Nor does it load zod, which only a tool module's own `defineTool` schemas need, or
 * the NATS client and the dashboard, which only `--nats`, workers and `troupe dashboard` need. The child runs with module hooks that refuse those packages, so any static import of
 * them on the way fails the run.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { spawnTroupe } from './spawn-troupe.js';

const HELLO_EXAMPLE = fileURLToPath(new URL('../../../apps/examples/hello.yaml', import.meta.url));
const NO_SDKS = new URL('./fixtures/hooks/no-sdks.mjs', import.meta.url).href;

describe('SDKs loaded on demand', () => {
  it('refuses an SDK in a process started with the hooks (the check below can fail)', () => {
    const child = spawnSync(process.execPath, ['--import', NO_SDKS, '--input-type=module', '-e', "await import('openai')"], { encoding: 'utf8' });
    expect(child.status).not.toBe(0);
    expect(child.stderr).toContain('refused to load openai');
  });

  it('runs the offline example without loading any vendor or MCP SDK, zod or the NATS client', async () => {
    const result = await spawnTroupe(['run', HELLO_EXAMPLE, '--input', 'What time is it?'], { env: { NODE_OPTIONS: `--import ${NO_SDKS}` } });
    expect(result.stderr).not.toContain('refused to load');
    expect(result.stdout).toMatch(/^The clock says it is \d{4}-/m);
    expect(result.code).toBe(0);
  });
});

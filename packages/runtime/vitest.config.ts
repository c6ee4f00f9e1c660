import { defineConfig } from 'vitest/config';

// Many tests here start a real nats-server, workers and MCP server processes: on a loaded 2-core
// machine that can take longer than vitest's 5 s default for a whole test. The timeout only
// catches hangs.
export default defineConfig({
  test: {
    globalSetup: ['../../tools/vitest/scratch-tmpdir.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // test/load/many-runs.test.ts forces collections to measure the heap a finished run leaves.
    execArgv: ['--expose-gc'],
  },
});

import { defineConfig } from 'vitest/config';

// Most tests here start real MCP server processes (and the conformance runner): on a loaded
// machine starting one can take seconds, far from vitest's 5 s default for a whole test.
export default defineConfig({
  test: {
    globalSetup: ['../../tools/vitest/scratch-tmpdir.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});

import { defineConfig } from 'vitest/config';

// The tests start real servers, runs, nats-server processes and a real Chromium: on a loaded
// 2-core machine that can take seconds. The timeouts only catch hangs.
export default defineConfig({
  test: {
    globalSetup: ['../../tools/vitest/scratch-tmpdir.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    fileParallelism: false,
  },
});

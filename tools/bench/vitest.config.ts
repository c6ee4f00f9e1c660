import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['../vitest/scratch-tmpdir.ts'],
    // Each test starts fresh Node processes, and the remote one a nats-server and workers.
    testTimeout: 180_000,
  },
});

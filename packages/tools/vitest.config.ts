import { defineConfig } from 'vitest/config';

// The Node tools' tests start real processes (bash, ripgrep): on a loaded machine that can take
// longer than vitest's 5 s default.
export default defineConfig({
  test: {
    globalSetup: ['../../tools/vitest/scratch-tmpdir.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});

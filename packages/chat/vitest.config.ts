import { defineConfig } from 'vitest/config';

// Component tests render ink into a fake terminal and wait on what it shows; on a loaded 2-core
// machine that can take longer than vitest's 5 s default. The timeout only catches hangs.
// FORCE_COLOR: the gauge's colours are asserted, whatever terminal runs the tests.
export default defineConfig({
  test: {
    globalSetup: ['../../tools/vitest/scratch-tmpdir.ts'],
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    env: { FORCE_COLOR: '1' },
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});

import { defineConfig } from 'vitest/config';

// The integration tests spawn bin/troupe.js, which runs dist/: build it first so they never
// test stale output (a no-op when nx has just built it). Each of them starts `troupe` processes
// (and some a nats-server): on a loaded 2-core machine a process can take seconds to start, far
// from vitest's 5 s default for a whole test. The timeout only catches hangs.
export default defineConfig({
  test: {
    globalSetup: ['../../tools/vitest/scratch-tmpdir.ts', './test/build-cli.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});

import { defineConfig } from 'vitest/config';

// The integration tests spawn bin/troupe.js, which runs dist/: build it first so they never
// test stale output (a no-op when nx has just built it).
export default defineConfig({
  test: {
    globalSetup: ['./test/build-cli.ts'],
  },
});

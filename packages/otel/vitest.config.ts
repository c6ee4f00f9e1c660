import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['../../tools/vitest/scratch-tmpdir.ts'],
  },
});

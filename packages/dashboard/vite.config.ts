import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The page is built into dist/ui at package build time and served by the dashboard's server, so it
// works offline. Preact's JSX through esbuild needs no plugin: keeping the build to one tool keeps it quick.
export default defineConfig({
  root: fileURLToPath(new URL('./ui', import.meta.url)),
  base: './',
  logLevel: 'warn',
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  build: {
    outDir: fileURLToPath(new URL('./dist/ui', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    reportCompressedSize: false,
  },
});

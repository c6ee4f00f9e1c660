/**
 * Vitest global setup: compiles this package's `dist/` (what bin/troupe.js runs), so the
 * integration tests exercise the current sources. Only this project is compiled (`-p`, not
 * `-b`): the packages it depends on are built by nx (`test` depends on `^build`).
 */
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

export default function buildCli(): void {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: fileURLToPath(new URL('..', import.meta.url)), stdio: 'inherit' });
}

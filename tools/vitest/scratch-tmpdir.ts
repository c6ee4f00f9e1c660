/**
 * Vitest global setup shared by every package: points `TMPDIR` at a folder of this test run's own
 * and removes it when the run ends. Tests, and the processes they start (nats-servers, `troupe`,
 * MCP servers, Chromium), make their scratch folders with `os.tmpdir()`; a test that fails, or a
 * process killed before it cleans up, used to leave them in /tmp for good (about 2,000 per CI run).
 * Workers are started after global setup, so they and their children inherit the variable.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function scratchTmpdir(): () => void {
  const previous = process.env['TMPDIR'];
  const dir = mkdtempSync(join(tmpdir(), 'troupe-test-'));
  process.env['TMPDIR'] = dir;
  return () => {
    if (previous === undefined) delete process.env['TMPDIR'];
    else process.env['TMPDIR'] = previous;
    // A process a test started may still be writing here as it dies: retry, and never fail the run for it.
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    } catch (error) {
      process.stderr.write(`could not remove the test run's scratch folder ${dir}: ${String(error)}\n`);
    }
  };
}

/** `troupe sandbox check` says what this machine offers (CI installs bubblewrap: available). */
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli.js';
import { captureIo } from '../run-cli.js';

describe('troupe sandbox check', () => {
  it('says the sandbox is available and what it hides, exit 0', async () => {
    const io = captureIo();
    expect(await runCli(['sandbox', 'check'], io)).toBe(0);
    expect(io.stdoutText()).toMatch(/^sandbox: available \(bubblewrap \d+\.\d+\.\d+\)\n/);
    expect(io.stdoutText()).toContain("hidden from sandboxed tools, besides each graph's .env: ~/.ssh, ~/.aws");
  });

  it('prints one JSON object with --json', async () => {
    const io = captureIo();
    expect(await runCli(['sandbox', 'check', '--json'], io)).toBe(0);
    const report = JSON.parse(io.stdoutText()) as { available: boolean; detail: string; hidden: { path: string; present: boolean }[] };
    expect(report).toMatchObject({ available: true, detail: expect.stringMatching(/^bubblewrap /) });
    expect(report.hidden.map((entry) => entry.path)).toContain('~/.ssh');
  });
});

/** Proves every stop reason maps to the documented exit code. */
import { describe, expect, it } from 'vitest';
import { ExitCode, exitCodeOf } from '../src/exit-code.js';

describe('exitCodeOf', () => {
  it.each([
    ['stop', ExitCode.Ok],
    ['length', ExitCode.Ok],
    ['complete', ExitCode.Ok],
    ['error', ExitCode.RunFailed],
    ['limit', ExitCode.RunFailed],
    ['refusal', ExitCode.RunFailed],
    ['interrupted', ExitCode.RunFailed],
    ['rejected', ExitCode.RunFailed],
    ['stopped', ExitCode.RunFailed],
    ['aborted', ExitCode.Interrupted],
  ] as const)('%s → %i', (reason, code) => {
    expect(exitCodeOf(reason)).toBe(code);
  });
});

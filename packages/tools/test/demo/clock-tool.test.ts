/**
 * Proves the clock demo tool is a read-only, argument-free tool whose result is the injected
 * time source's instant as an ISO 8601 string, so tests and offline examples stay deterministic.
 */
import { describe, expect, it } from 'vitest';
import { createClockTool } from '../../src/demo/clock-tool.js';
import { testToolContext } from '../tool-context.js';

describe('createClockTool', () => {
  it('returns the injected time as an ISO string', async () => {
    const tool = createClockTool({ now: () => Date.UTC(2026, 10, 22, 9, 30, 0) });
    const result = await tool.execute({}, testToolContext());
    expect(result.content).toBe('2026-11-22T09:30:00.000Z');
    expect(result.isError).toBeUndefined();
  });

  it('reads the time at each call, not at creation', async () => {
    let now = 0;
    const tool = createClockTool({ now: () => now });
    now = 1000;
    expect((await tool.execute({}, testToolContext())).content).toBe('1970-01-01T00:00:01.000Z');
  });

  it('is read-only and takes no arguments', () => {
    const tool = createClockTool();
    expect(tool.name).toBe('clock');
    expect(tool.readOnly).toBe(true);
    expect(tool.parameters).toEqual({ type: 'object', properties: {}, additionalProperties: false });
  });

  it('defaults to the system clock', async () => {
    const before = Date.now();
    const text = (await createClockTool().execute({}, testToolContext())).content;
    const after = Date.now();
    expect(typeof text).toBe('string');
    const instant = Date.parse(text as string);
    expect(instant).toBeGreaterThanOrEqual(before);
    expect(instant).toBeLessThanOrEqual(after);
  });
});

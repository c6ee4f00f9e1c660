/**
 * Agents with equal settings share one settings object (the machine never changes what it
 * stores, and thousands of agents may wait at once); agents with other settings get their own.
 */
import { describe, expect, it } from 'vitest';
import type { AgentOptions } from '../src/index.js';
import { machineSettings } from '../src/agent-settings.js';
import { createScriptedProvider } from '../src/testing.js';

const options = (more: Partial<AgentOptions> = {}): AgentOptions => ({ provider: createScriptedProvider([]), model: 'test', ...more });

describe('machineSettings', () => {
  it('gives agents with equal settings the same object', () => {
    expect(machineSettings(options({ limits: { maxTurns: 7 } }), false)).toBe(machineSettings(options({ limits: { maxTurns: 7 } }), false));
  });

  it('gives agents with other settings their own', () => {
    const seven = machineSettings(options({ limits: { maxTurns: 7 } }), false);
    const eight = machineSettings(options({ limits: { maxTurns: 8 } }), false);
    const compacting = machineSettings(options({ limits: { maxTurns: 7 } }), true);
    expect(seven.limits.maxTurns).toBe(7);
    expect(eight.limits.maxTurns).toBe(8);
    expect(compacting).toEqual({ ...seven, compacts: true });
    expect(machineSettings(options({ steeringMode: 'all' }), false).steeringMode).toBe('all');
  });
});

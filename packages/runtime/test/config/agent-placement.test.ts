/**
 * An agent's `placement` (local or remote) and `concurrency` load into its `AgentConfig` only
 * when written (absent means local, no cap); the published JSON Schema accepts and rejects the
 * same values; `troupe graph show` draws remote agents dashed with their placement in the label.
 * Bad values' messages are in bad-graph-files.test.ts.
 */
import { readFileSync } from 'node:fs';
import { SchemaValidator } from '@troupe/core';
import { describe, expect, it } from 'vitest';
import { graphToMermaid } from '../../src/config/graph-mermaid.js';
import { parseGraph } from '../../src/config/load-graph.js';

const FILE = [
  'version: 1',
  'models:',
  '  m: { model: scripted, script: [{ text: hi }] }',
  'agents:',
  '  lead: { model: m, delegates: [coder, reviewer] }',
  '  coder: { model: m, placement: remote, concurrency: 2 }',
  '  reviewer: { model: m, placement: local, concurrency: 1 }',
  'entry: lead',
  '',
].join('\n');

describe('agent placement', () => {
  it('loads placement and concurrency, and leaves them out when absent', async () => {
    const graph = await parseGraph(FILE, { file: 'g.yaml', env: {} });
    expect(graph.agents['coder']).toMatchObject({ placement: 'remote', concurrency: 2 });
    expect(graph.agents['reviewer']).toMatchObject({ placement: 'local', concurrency: 1 });
    expect(graph.agents['lead']).not.toHaveProperty('placement');
    expect(graph.agents['lead']).not.toHaveProperty('concurrency');
  });

  it('is described by the published JSON Schema', () => {
    const schema = JSON.parse(readFileSync(new URL('../../schema/graph.schema.json', import.meta.url), 'utf8')) as Record<string, unknown>;
    const validate = new SchemaValidator().compile(schema);
    const withAgent = (agent: Record<string, unknown>): unknown => ({
      version: 1,
      models: { m: { model: 'scripted' } },
      agents: { a: { model: 'm', ...agent } },
    });
    expect(validate(withAgent({ placement: 'remote', concurrency: 3 }))).toEqual({ ok: true });
    expect(validate(withAgent({ placement: 'local' }))).toEqual({ ok: true });
    expect(validate(withAgent({ placement: 'worker' })).ok).toBe(false);
    expect(validate(withAgent({ concurrency: 0 })).ok).toBe(false);
    expect(validate(withAgent({ concurrency: 1.5 })).ok).toBe(false);
  });

  it('draws remote agents dashed, with the placement in their label', async () => {
    const chart = graphToMermaid(await parseGraph(FILE, { file: 'g.yaml', env: {} }));
    expect(chart).toContain('  agent__coder["coder<br/>scripted:default<br/>remote, at most 2 at once"]');
    expect(chart).toContain('  agent__reviewer["reviewer<br/>scripted:default<br/>at most 1 at once"]');
    expect(chart).toContain('  agent__lead["lead ★<br/>scripted:default"]');
    expect(chart).toContain('  classDef remote stroke-dasharray: 5 5\n  class agent__coder remote\n');
  });
});

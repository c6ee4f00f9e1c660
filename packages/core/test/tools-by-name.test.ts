/**
 * `toolsByName` reads as a `Map` by name whatever the number of tools: a few are kept as their
 * list (searched by name), more in a `Map`; both iterate in the list's order.
 */
import { describe, expect, it } from 'vitest';
import { defineTool, type Tool } from '../src/index.js';
import { toolsByName } from '../src/tools-by-name.js';

const tool = (name: string): Tool =>
  defineTool({ name, description: name, parameters: { type: 'object', properties: {} }, execute: () => ({ content: name }) });

describe('toolsByName', () => {
  for (const count of [1, 3, 8, 9, 20]) {
    it(`finds each of ${count} tools by name and iterates them in order`, () => {
      const tools = Array.from({ length: count }, (_, i) => tool(`t${i}`));
      const byName = toolsByName(tools);
      expect(byName.size).toBe(count);
      for (const t of tools) {
        expect(byName.get(t.name)).toBe(t);
        expect(byName.has(t.name)).toBe(true);
      }
      expect(byName.get('missing')).toBeUndefined();
      expect(byName.has('missing')).toBe(false);
      expect([...byName.keys()]).toEqual(tools.map((t) => t.name));
      expect([...byName.values()]).toEqual(tools);
      expect([...byName]).toEqual(tools.map((t) => [t.name, t]));
      const seen: string[] = [];
      byName.forEach((t, name) => {
        seen.push(`${name}=${t.name}`);
      });
      expect(seen).toEqual(tools.map((t) => `${t.name}=${t.name}`));
    });
  }
});

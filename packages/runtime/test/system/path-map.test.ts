/**
 * PathMap, the map that keeps a lone entry inline: it answers as a `Map` would through every
 * change of shape (empty, one entry, several, back to one and to none), in insertion order.
 */
import { describe, expect, it } from 'vitest';
import { PathMap } from '../../src/system/path-map.js';

describe('PathMap', () => {
  it('answers as a Map would, step by step', () => {
    const map = new PathMap<number>();
    const reference = new Map<string, number>();
    const steps: Array<['set', string, number] | ['delete', string] | ['clear']> = [
      ['set', 'lead', 1],
      ['set', 'lead', 2],
      ['delete', 'other'],
      ['set', 'lead/helper#1', 3],
      ['set', 'lead/helper#2', 4],
      ['delete', 'lead'],
      ['set', 'lead', 5],
      ['delete', 'lead/helper#1'],
      ['delete', 'lead/helper#2'],
      ['delete', 'lead'],
      ['set', 'solo', 6],
      ['clear'],
      ['set', 'again', 7],
    ];
    for (const step of steps) {
      if (step[0] === 'set') {
        map.set(step[1], step[2]);
        reference.set(step[1], step[2]);
      } else if (step[0] === 'delete') {
        expect(map.delete(step[1])).toBe(reference.delete(step[1]));
      } else {
        map.clear();
        reference.clear();
      }
      expect(map.size).toBe(reference.size);
      expect([...map]).toEqual([...reference]);
      expect([...map.values()]).toEqual([...reference.values()]);
      for (const key of ['lead', 'lead/helper#1', 'solo', 'again', 'none']) {
        expect(map.get(key)).toBe(reference.get(key));
        expect(map.has(key)).toBe(reference.has(key));
      }
    }
  });
});

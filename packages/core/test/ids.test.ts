/**
 * Agent paths: `parseAgentPath` checks every segment, `childPath` formats a child below its
 * parent and checks only the new segment, naming it when it is bad.
 */
import { describe, expect, it } from 'vitest';
import { childPath, parseAgentPath } from '../src/index.js';

describe('agent paths', () => {
  it('parses a path of valid segments, and names the first bad segment of one that is not', () => {
    expect(parseAgentPath('lead/researcher#2/critic_1.v-2')).toBe('lead/researcher#2/critic_1.v-2');
    expect(() => parseAgentPath('lead/re search#2/x y')).toThrow(new TypeError('invalid agent path "lead/re search#2/x y": bad segment "re search#2"'));
    expect(() => parseAgentPath('lead/a#')).toThrow(/bad segment "a#"/);
    expect(() => parseAgentPath('lead/')).toThrow(/bad segment ""/);
    expect(() => parseAgentPath('lead\n')).toThrow(TypeError);
  });

  it('formats a child path, numbered or not', () => {
    const lead = parseAgentPath('lead');
    expect(childPath(lead, 'researcher', 2)).toBe('lead/researcher#2');
    expect(childPath(childPath(lead, 'researcher', 2), 'critic')).toBe('lead/researcher#2/critic');
  });

  it('rejects a bad child segment, naming it', () => {
    const lead = parseAgentPath('lead');
    expect(() => childPath(lead, 'bad name', 1)).toThrow(new TypeError('invalid agent path "lead/bad name#1": bad segment "bad name#1"'));
    expect(() => childPath(lead, 'a/b')).toThrow(/bad segment "a\/b"/);
    expect(() => childPath(lead, '')).toThrow(TypeError);
    expect(() => parseAgentPath('lead//x')).toThrow(/bad segment ""/);
  });
});

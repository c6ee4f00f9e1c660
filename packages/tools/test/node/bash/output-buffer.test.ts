/**
 * Proves the head-and-tail output buffer: small output is kept whole, large output keeps its
 * first and last bytes with a marker counting what was dropped, memory stays bounded however
 * much arrives, and cuts never split a UTF-8 character.
 */
import { describe, expect, it } from 'vitest';
import { HeadTailBuffer } from '../../../src/node/bash/output-buffer.js';

describe('HeadTailBuffer', () => {
  it('keeps small output whole', () => {
    const buffer = new HeadTailBuffer(10);
    buffer.push(Buffer.from('abc'));
    buffer.push(Buffer.from('defghij'));
    expect(buffer.text()).toEqual({ text: 'abcdefghij', omitted: 0 });
  });

  it('keeps the head and the tail of large output', () => {
    const buffer = new HeadTailBuffer(10);
    for (let i = 0; i < 1000; i++) buffer.push(Buffer.from(String(i % 10)));
    expect(buffer.total).toBe(1000);
    expect(buffer.text()).toEqual({ text: '01234\n[… 990 bytes omitted …]\n56789', omitted: 990 });
  });

  it('does not split UTF-8 characters', () => {
    const buffer = new HeadTailBuffer(8);
    buffer.push(Buffer.from('ééééé-ééééé'));
    const { text } = buffer.text();
    expect(text).not.toContain('\uFFFD');
    expect(text).toMatch(/^é+\n\[… \d+ bytes omitted …\]\né+$/);
  });
});

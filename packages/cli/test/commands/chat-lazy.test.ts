/**
 * `troupe chat` loads @troupe/chat (React, ink, marked) only when it runs: no source of the CLI
 * imports it statically, so `troupe run` and every other command start without paying for it.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

describe('troupe chat', () => {
  it('imports @troupe/chat only dynamically', () => {
    const statics = sources(SRC).filter((file) => /^import (?!type )[^;]*from '@troupe\/chat'/m.test(readFileSync(file, 'utf8')));
    expect(statics).toEqual([]);
    expect(readFileSync(join(SRC, 'commands/chat.ts'), 'utf8')).toContain("await import('@troupe/chat')");
  });
});

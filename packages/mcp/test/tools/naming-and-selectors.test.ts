/**
 * Proves tool naming and selectors: exposed names are the prefix plus the tool name with
 * characters model APIs refuse replaced by `_`, the default prefix is `<server>__`, and selectors
 * parse as `server.tool` / `server.*` (the tool part may contain dots) while malformed ones are
 * refused.
 */
import { describe, expect, it } from 'vitest';
import { parseToolSelector } from '../../src/hub/tool-selector.js';
import { defaultToolPrefix, exposedToolName } from '../../src/tools/tool-naming.js';

describe('tool naming', () => {
  it('prefixes and sanitises', () => {
    expect(exposedToolName(defaultToolPrefix('github'), 'create_issue')).toBe('github__create_issue');
    expect(exposedToolName('gh_', 'repo.list files')).toBe('gh_repo_list_files');
    expect(exposedToolName('', 'get-sum')).toBe('get-sum');
  });
});

describe('parseToolSelector', () => {
  it('parses server.tool and server.*', () => {
    expect(parseToolSelector('github.*')).toEqual({ server: 'github', tool: '*' });
    expect(parseToolSelector('fs.read_text_file')).toEqual({ server: 'fs', tool: 'read_text_file' });
    expect(parseToolSelector('probe.dotted.name')).toEqual({ server: 'probe', tool: 'dotted.name' });
  });

  it('refuses malformed selectors', () => {
    for (const text of ['plain', '.tool', 'server.', 'bad server.x', 'a/b.c']) expect(parseToolSelector(text)).toBeUndefined();
  });
});

/**
 * Proves binary and oversized files are refused before they are parsed, in one problem rather
 * than a screen of YAML errors: a graph file that is an image, or larger than 1 MB (its size is
 * checked before it is read), and a binary script file named by a graph; `readCheckedTextFile`
 * takes its own limit, and sizes read naturally.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatBytes, GRAPH_FILE_MAX_BYTES, GraphFileError, loadGraphFile, readCheckedTextFile, TextFileError, TextFileErrorCode } from '../../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'troupe-text-files-'));
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);

async function loadError(file: string): Promise<GraphFileError> {
  const error: unknown = await loadGraphFile(file, { env: {} }).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof GraphFileError)) throw new Error(`expected a GraphFileError, got ${String(error)}`);
  return error;
}

describe('text files', () => {
  it('refuses a binary graph file in one problem', async () => {
    const file = join(dir, 'image.png');
    writeFileSync(file, PNG);
    const error = await loadError(file);
    expect(error.problems).toEqual([{ file, line: 1, col: 1, message: 'cannot read the graph file: it is not a text file' }]);
    expect(error.cause).toBeInstanceOf(TextFileError);
    expect((error.cause as TextFileError).message).toBe(`${file} is not a text file`);
  });

  it('refuses invalid UTF-8 without a NUL byte', async () => {
    const file = join(dir, 'latin1.yaml');
    writeFileSync(file, Buffer.from('version: 1\n# caf\xe9\n', 'latin1'));
    expect((await loadError(file)).cause).toMatchObject({ code: TextFileErrorCode.NotText });
  });

  it('refuses a graph file over 1 MB', async () => {
    const file = join(dir, 'big.yaml');
    writeFileSync(file, `# ${'x'.repeat(GRAPH_FILE_MAX_BYTES)}\n`);
    const error = await loadError(file);
    expect(error.cause).toMatchObject({ code: TextFileErrorCode.TooLarge, message: `${file} is more than 1 MB; graph files are at most 1 MB` });
    expect(error.problems[0]?.message).toBe('cannot read the graph file: it is more than 1 MB; graph files are at most 1 MB');
  });

  it('reports a binary script file at the scriptFile that names it', async () => {
    writeFileSync(join(dir, 'replies.yaml'), PNG);
    const file = join(dir, 'scripted.yaml');
    writeFileSync(file, ['version: 1', 'models:', '  m: { model: scripted, scriptFile: replies.yaml }', 'agents:', '  a: { model: m }', ''].join('\n'));
    expect((await loadError(file)).problems).toEqual([
      { file, line: 3, col: 37, message: 'cannot read script file "replies.yaml": it is not a text file', hint: `looked for ${join(dir, 'replies.yaml')}` },
    ]);
  });

  it('reads a text file within its own limit, and refuses one over it', async () => {
    const file = join(dir, 'input.txt');
    writeFileSync(file, 'héllo\n'.repeat(500));
    await expect(readCheckedTextFile(file, { maxBytes: 4096, what: 'input files' })).resolves.toHaveLength(3000);
    await expect(readCheckedTextFile(file, { maxBytes: 1024, what: 'input files' })).rejects.toThrow(`${file} is 3.4 KB; input files are at most 1 KB`);
    await expect(readCheckedTextFile(join(dir, 'missing.txt'), { maxBytes: 1024, what: 'input files' })).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it.each([
    [300, '300 bytes'],
    [2048, '2 KB'],
    [1536, '1.5 KB'],
    [40 * 1024 * 1024, '40 MB'],
    [1.25 * 1024 * 1024, '1.3 MB'],
  ])('formats %d bytes as %s', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });
});

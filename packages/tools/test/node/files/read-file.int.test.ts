/**
 * Proves read_file on real files: line-numbered text, offset/limit paging, the byte cap with a
 * note naming the offset to read on, images returned as image content, binary files and
 * directories refused with clear messages, paths outside the workspace refused, a missing file
 * reported, and an aborted call ending as an error result.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReadFileTool } from '../../../src/node/files/read-file-tool.js';
import { testToolContext } from '../../tool-context.js';
import { tempWorkspace, textOf } from '../temp-workspace.js';

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a0f6b2c50000000049454e44ae426082',
  'hex',
);
let ws: Awaited<ReturnType<typeof tempWorkspace>>;

beforeAll(async () => {
  const long = Array.from({ length: 300 }, (_, i) => `line ${i + 1}`).join('\n');
  ws = await tempWorkspace({
    'a.txt': 'alpha\nbeta\r\ngamma\n',
    'long.txt': long,
    'pic.png': PNG,
    'bin.dat': Buffer.from([1, 2, 0, 3]),
    'empty.txt': '',
    'dir/x.txt': 'x',
  });
});
afterAll(() => ws.remove());

describe('read_file', () => {
  it('returns line-numbered text', async () => {
    const result = await createReadFileTool({ workspace: ws.root }).execute({ path: 'a.txt' }, testToolContext());
    expect(result.isError).toBeUndefined();
    expect(result.content).toBe('     1\talpha\n     2\tbeta\n     3\tgamma');
    expect(result.details).toEqual({ path: 'a.txt', totalLines: 3, from: 1, to: 3, truncated: false });
  });

  it('pages with offset and limit, and says where to read on', async () => {
    const tool = createReadFileTool({ workspace: ws.root });
    const page = textOf((await tool.execute({ path: 'long.txt', offset: 10, limit: 3 }, testToolContext())).content);
    expect(page).toBe(
      '    10\tline 10\n    11\tline 11\n    12\tline 12\n\n[lines 10-12 of 300 shown (limit of 3 lines); call read_file with offset 13 to read on]',
    );
    const capped = createReadFileTool({ workspace: ws.root, settings: { maxBytes: 100 } });
    const text = textOf((await capped.execute({ path: 'long.txt' }, testToolContext())).content);
    expect(text).toContain('     7\tline 7\n\n[lines 1-7 of 300 shown (output capped at 100 bytes); call read_file with offset 8 to read on]');
    const past = await tool.execute({ path: 'long.txt', offset: 301 }, testToolContext());
    expect(past).toMatchObject({ isError: true, content: 'read_file: long.txt: offset 301 is past the end of the file (300 lines)' });
    expect((await tool.execute({ path: 'empty.txt' }, testToolContext())).content).toBe('(empty file)');
  });

  it('returns images as image content', async () => {
    const result = await createReadFileTool({ workspace: ws.root }).execute({ path: 'pic.png' }, testToolContext());
    expect(result.content).toEqual([
      { type: 'text', text: `Image pic.png (image/png, ${PNG.length} bytes)` },
      { type: 'image', data: PNG.toString('base64'), mimeType: 'image/png' },
    ]);
  });

  it('refuses binary files, directories, missing files and paths outside', async () => {
    const tool = createReadFileTool({ workspace: ws.root });
    expect(await tool.execute({ path: 'bin.dat' }, testToolContext())).toMatchObject({
      isError: true,
      content: 'read_file: bin.dat is a binary file (4 bytes); read_file only reads text and images',
    });
    expect(await tool.execute({ path: 'dir' }, testToolContext())).toMatchObject({
      isError: true,
      content: 'read_file: dir is a directory; use list_files to see what it contains',
    });
    expect(await tool.execute({ path: 'nope.txt' }, testToolContext())).toMatchObject({
      isError: true,
      content: 'read_file: nope.txt: no such file or directory',
    });
    expect(await tool.execute({ path: '../../etc/passwd' }, testToolContext())).toMatchObject({
      isError: true,
      content: expect.stringMatching(/^read_file: path "..\/..\/etc\/passwd" is outside the workspace/),
    });
  });

  it('honours an aborted signal', async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await createReadFileTool({ workspace: ws.root }).execute({ path: 'a.txt' }, testToolContext({ signal: controller.signal }));
    expect(result).toMatchObject({ isError: true, content: 'read_file: aborted' });
  });
});

/**
 * Proves the adapter against the real @modelcontextprotocol/server-filesystem (confined to a temp
 * directory) and @modelcontextprotocol/server-memory (its graph in a temp file, MEMORY_FILE_PATH
 * always set): listing, writing and reading through the servers' tools, the servers' own access
 * errors as error results, structured content kept in details, readOnly only from trusted
 * annotations, data landing where configured, and no server process left after close().
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpClient, type McpClient } from '../src/index.js';
import { alive, filesystemServer, memoryServer } from './support/servers.js';
import { testToolContext } from './support/tool-context.js';

let dir: string;
let fs: McpClient;
let memory: McpClient;
const pids: number[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'troupe-mcp-'));
  fs = createMcpClient('fs', { ...filesystemServer(join(dir, 'files')), trustAnnotations: true }, { closeGraceMs: 500 });
  memory = createMcpClient('memory', memoryServer(join(dir, 'memory.jsonl')), { closeGraceMs: 500 });
});

afterAll(async () => {
  await Promise.all([fs.close(), memory.close()]);
  for (const pid of pids) expect(alive(pid)).toBe(false);
  await rm(dir, { recursive: true, force: true });
});

describe('server-filesystem', () => {
  beforeAll(async () => {
    const { mkdir } = await import('node:fs/promises');
    await mkdir(join(dir, 'files'));
    await fs.connect();
    pids.push(fs.info()?.pid as number);
  });

  it('lists its tools, trusting annotations when told to', async () => {
    const tools = await fs.tools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['fs__read_text_file', 'fs__write_file', 'fs__list_directory']));
    expect(tools.find((t) => t.name === 'fs__read_text_file')?.readOnly).toBe(true);
    expect(tools.find((t) => t.name === 'fs__write_file')?.readOnly).toBe(false);
    // idempotentHint: writing a file again is safe to repeat after a restore, an edit is not.
    expect(tools.find((t) => t.name === 'fs__write_file')?.idempotent).toBe(true);
    expect(tools.find((t) => t.name === 'fs__edit_file')?.idempotent).toBe(false);
  });

  it('writes and reads files through the server', async () => {
    const tools = await fs.tools();
    const path = join(dir, 'files', 'note.txt');
    const write = await tools.find((t) => t.name === 'fs__write_file')?.execute({ path, content: 'from troupe' }, testToolContext());
    expect(write?.isError).toBeUndefined();
    expect(await readFile(path, 'utf8')).toBe('from troupe');
    const read = await tools.find((t) => t.name === 'fs__read_text_file')?.execute({ path }, testToolContext());
    expect(read).toMatchObject({ content: [{ type: 'text', text: 'from troupe' }], details: { structuredContent: { content: 'from troupe' } } });
  });

  it('returns the server refusing a path outside its directory as an error result', async () => {
    const result = await fs.callTool('read_text_file', { path: '/etc/hostname' });
    expect(result).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: expect.stringContaining('Access denied - path outside allowed directories') }],
    });
  });
});

describe('server-memory', () => {
  beforeAll(async () => {
    await memory.connect();
    pids.push(memory.info()?.pid as number);
  });

  it('stores entities in the configured file and reads them back', async () => {
    expect((await memory.listTools()).map((t) => t.name)).toEqual(expect.arrayContaining(['create_entities', 'read_graph', 'search_nodes']));
    const created = await memory.callTool('create_entities', { entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote the first program'] }] });
    expect(created.isError).toBeUndefined();
    const found = await memory.callTool('search_nodes', { query: 'Ada' });
    expect(found.details).toMatchObject({ structuredContent: { entities: [{ name: 'Ada', entityType: 'person' }] } });
    expect(await readFile(join(dir, 'memory.jsonl'), 'utf8')).toContain('"name":"Ada"');
  });

  it('returns its errors as error results', async () => {
    const result = await memory.callTool('create_relations', { relations: 'not a list' });
    expect(result.isError).toBe(true);
  });
});

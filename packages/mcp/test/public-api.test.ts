/**
 * Proves the MCP SDK stays behind the adapter (so it can be swapped for its next major): no
 * declaration file reachable from the package's public entry (dist/index.d.ts, built before the
 * tests run) imports @modelcontextprotocol/*, and the entry exports the documented names.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));

function reachableDeclarations(entry: string): Map<string, string> {
  const files = new Map<string, string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (files.has(file)) continue;
    const text = readFileSync(file, 'utf8');
    files.set(file, text);
    for (const match of text.matchAll(/(?:from|import)\s*\(?\s*['"](\.[^'"]+)['"]/g)) {
      const target = resolve(dirname(file), (match[1] as string).replace(/\.js$/, '.d.ts'));
      if (existsSync(target)) queue.push(target);
    }
  }
  return files;
}

describe('the public API', () => {
  it('does not expose MCP SDK types', () => {
    const files = reachableDeclarations(join(dist, 'index.d.ts'));
    expect(files.size).toBeGreaterThan(5);
    const leaks = [...files].filter(([, text]) => text.includes('@modelcontextprotocol')).map(([file]) => file);
    expect(leaks).toEqual([]);
  });

  it('exports the adapter', () => {
    expect(Object.keys(api).sort()).toEqual([
      'MCP_SERVER_NAME',
      'McpAdapterError',
      'McpErrorCode',
      'createMcpClient',
      'createMcpHub',
      'defaultToolPrefix',
      'exposedToolName',
      'isStdioConfig',
      'parseToolSelector',
      'silentMcpLogger',
    ]);
  });
});

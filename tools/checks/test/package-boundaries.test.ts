/**
 * Dependencies point one way (DESIGN.md's package table): every import in every package's
 * `src/` is checked against what that package may import. Core in particular imports no `node:*`
 * module, no network or process API, and no vendor SDK; no package reaches into another's
 * internals.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importsOf, sourceFiles } from './source-imports.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');

/** What each package may import (besides its own relative files). `node:` means Node built-ins. */
const allowed: Record<string, (string | RegExp)[]> = {
  core: ['xstate', 'rxjs', 'ajv'],
  providers: ['@troupe/core', 'node:', 'openai', '@anthropic-ai/sdk', '@google/genai'],
  tools: ['@troupe/core', 'node:', 'zod'],
  mcp: ['@troupe/core', 'node:', '@modelcontextprotocol/sdk', 'zod'],
  // Broker-agnostic: no NATS client; vitest only in the `./testing` entry's contract suites.
  runtime: ['@troupe/core', '@troupe/providers', '@troupe/tools', '@troupe/mcp', 'rxjs', 'pino', 'yaml', 'tsx', 'node:', 'vitest'],
  nats: ['@troupe/core', '@troupe/runtime', /^@nats-io\//, 'rxjs', 'node:'],
  // The OpenTelemetry API only: the SDK and exporters are the application's (or the CLI's).
  otel: ['@troupe/core', '@troupe/runtime', '@opentelemetry/api'],
  // The chat UI: ink and React, markdown, highlighting and diffs for the terminal.
  chat: [
    '@troupe/core',
    '@troupe/runtime',
    'rxjs',
    'node:',
    'ink',
    'react',
    'marked',
    'marked-terminal',
    'cli-highlight',
    'diff',
    'chalk',
    'string-width',
    'wrap-ansi',
  ],
  // The dashboard's server reads through the runtime's and the NATS layer's ports; its page (ui/) is built apart.
  dashboard: ['@troupe/core', '@troupe/runtime', '@troupe/nats', 'node:'],
  // The OpenTelemetry SDK and exporters too, loaded only when tracing is asked for (src/telemetry/);
  // @troupe/chat only when `troupe chat` runs (commands/chat.ts).
  cli: [
    '@troupe/runtime',
    '@troupe/dashboard',
    '@troupe/nats',
    '@troupe/otel',
    /^@opentelemetry\//,
    '@troupe/core',
    '@troupe/tools',
    '@troupe/chat',
    'rxjs',
    'commander',
    'node:',
    'ink',
    'react',
    'ansi-escapes',
    'log-update',
    'slice-ansi',
    'string-width',
    'wrap-ansi',
  ],
};

/** Globals core must not touch even without an import. */
const coreForbiddenGlobals = /\b(process\.|require\(|fetch\(|Buffer\.|__dirname)/;

function permitted(specifier: string, rules: (string | RegExp)[]): boolean {
  return rules.some((rule) => {
    if (rule instanceof RegExp) return rule.test(specifier);
    if (rule === 'node:') return specifier.startsWith('node:');
    return specifier === rule || specifier.startsWith(`${rule}/`);
  });
}

describe('package boundaries', () => {
  for (const [pkg, rules] of Object.entries(allowed)) {
    it(`${pkg} imports only what DESIGN.md allows`, () => {
      const srcDir = join(root, 'packages', pkg, 'src');
      const violations: string[] = [];
      for (const file of sourceFiles(srcDir)) {
        const source = readFileSync(file, 'utf8');
        const where = relative(root, file);
        for (const specifier of importsOf(source)) {
          if (specifier.startsWith('.')) {
            const target = join(dirname(file), specifier);
            if (!target.startsWith(srcDir)) violations.push(`${where}: reaches outside its package: ${specifier}`);
          } else if (/^@troupe\/[^/]+\/(src|dist)/.test(specifier)) {
            violations.push(`${where}: imports another package's internals: ${specifier}`);
          } else if (!permitted(specifier, rules)) {
            violations.push(`${where}: may not import ${specifier}`);
          }
        }
        if (pkg === 'core' && coreForbiddenGlobals.test(source.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, ''))) {
          violations.push(`${where}: uses a Node or network global`);
        }
      }
      expect(violations).toEqual([]);
    });
  }

  it('finds imports (the scanner itself works)', () => {
    expect(importsOf("import { a } from 'xstate';\nimport type { B } from './b.js';\nexport { c } from 'node:fs';")).toEqual(['xstate', './b.js', 'node:fs']);
    expect(permitted('node:fs', allowed['core']!)).toBe(false);
  });
});

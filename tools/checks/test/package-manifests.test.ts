/**
 * Every package installs outside the monorepo (where hoisting no longer hides a missing
 * dependency): each package it imports in `src/` is in its `dependencies` or
 * `peerDependencies`, each dependency it declares is used, other Troupe packages are required at
 * the version the workspace has (not "*"), and every file its `exports` and `bin` point to is
 * inside what `files` publishes. (packages/cli/test/project/packaging.int.test.ts installs the
 * packed tarballs for real.)
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importsOf, sourceFiles } from './source-imports.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const packages = readdirSync(join(root, 'packages'));

interface Manifest {
  name: string;
  version: string;
  files?: string[];
  bin?: Record<string, string>;
  exports?: Record<string, string | Record<string, string>>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

const manifestOf = (pkg: string): Manifest => JSON.parse(readFileSync(join(root, 'packages', pkg, 'package.json'), 'utf8')) as Manifest;
const versions = new Map(packages.map((pkg) => [manifestOf(pkg).name, manifestOf(pkg).version]));

/** Declared but not imported, on purpose: zod is the MCP SDK's peer dependency. */
const NOT_IMPORTED: Record<string, string[]> = { mcp: ['zod'] };

/** The package a bare specifier names (`@scope/name/sub` → `@scope/name`), or undefined for relative and built-in ones. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('node:')) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

describe('package manifests', () => {
  it.each(packages)('%s declares exactly the packages its sources import', (pkg) => {
    const manifest = manifestOf(pkg);
    const imported = new Set(
      sourceFiles(join(root, 'packages', pkg, 'src'))
        .flatMap((file) => importsOf(readFileSync(file, 'utf8')).map(packageOf))
        .filter((name) => name !== undefined),
    );
    const declared = new Set([...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {})]);
    expect(
      [...imported].filter((name) => !declared.has(name)),
      'imported but not declared',
    ).toEqual([]);
    expect(
      [...declared].filter((name) => !imported.has(name) && !(NOT_IMPORTED[pkg] ?? []).includes(name)),
      'declared but not imported',
    ).toEqual([]);
  });

  it.each(packages)('%s requires other Troupe packages at their workspace version', (pkg) => {
    const troupe = Object.entries(manifestOf(pkg).dependencies ?? {}).filter(([name]) => versions.has(name));
    expect(troupe.filter(([name, range]) => range !== versions.get(name))).toEqual([]);
  });

  it.each(packages)('%s publishes every file its exports and bin point to', (pkg) => {
    const manifest = manifestOf(pkg);
    const targets = [
      ...Object.values(manifest.exports ?? {}).flatMap((target) => (typeof target === 'string' ? [target] : Object.values(target))),
      ...Object.values(manifest.bin ?? {}),
    ];
    const files = manifest.files ?? [];
    expect(targets.length).toBeGreaterThan(0);
    expect(targets.filter((target) => !files.some((entry) => target.replace(/^\.\//, '').startsWith(`${entry}/`)))).toEqual([]);
  });
});

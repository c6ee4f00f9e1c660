import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Every .ts/.tsx file under `dir`. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** The module specifiers a source file imports or re-exports (static and dynamic imports). */
export function importsOf(source: string): string[] {
  const specifiers: string[] = [];
  for (const match of source.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/g)) specifiers.push(match[1]!);
  for (const match of source.matchAll(/(?:import\(|^\s*import\s+)['"]([^'"]+)['"]/gm)) specifiers.push(match[1]!);
  return specifiers;
}

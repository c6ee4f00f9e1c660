/**
 * Proves `troupe init [dir]` scaffolds a project: the graph file naming the installed schema, the
 * tool, its test, `.env.example`, tsconfig and README, a package.json with the scripts and
 * dependencies, a .gitignore, and the next commands; that it refuses to write over any existing
 * scaffold file (naming them, writing nothing); that an existing package.json and .gitignore keep
 * what they have and only gain what they lack (npm init's failing test script is replaced); and
 * that a directory that is a file, or a package.json that is not JSON, stop it with exit 2.
 * (That the scaffolded project installs, runs and passes its test is proved by the packaging test.)
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli.js';
import { initCommand } from '../../src/commands/init.js';
import { captureIo } from '../run-cli.js';

let cwd = '';

beforeEach(() => {
  cwd = mkdtempSync(join(tmpdir(), 'troupe-init-'));
});
afterEach(() => {
  rmSync(cwd, { recursive: true, force: true });
});

const read = (path: string): string => readFileSync(join(cwd, path), 'utf8');
const init = (dir: string, io = captureIo()): number => initCommand({ dir, cwd, troupeVersion: '1.2.3' }, io);

describe('troupe init', () => {
  it('scaffolds a project in a new directory and prints the next commands', () => {
    const io = captureIo();
    expect(init('my-agents', io)).toBe(0);
    expect(io.stdoutText()).toBe(
      [
        'Created a Troupe project in my-agents:',
        '  graph.yaml                        the agent graph (a scripted model: runs offline)',
        '  tools/convert-temperature.ts      a custom tool (defineTool and a zod schema)',
        '  test/convert-temperature.test.ts  its test, on the scripted model',
        '  .env.example                      API keys for real models: copy it to .env',
        '  tsconfig.json                     TypeScript settings (npm run typecheck)',
        '  README.md                         what is where',
        '  package.json                      new (scripts start, validate, test, typecheck)',
        '  .gitignore                        added node_modules/, .env, .troupe/',
        '',
        'Next:',
        '  cd my-agents',
        '  npm install',
        '  npx troupe run graph.yaml --input "How warm is 21 °C in Fahrenheit?"',
        '  npm test',
        '',
      ].join('\n'),
    );
    expect(read('my-agents/graph.yaml')).toMatch(/^# yaml-language-server: \$schema=\.\/node_modules\/@troupe\/runtime\/schema\/graph\.schema\.json\n/);
    expect(read('my-agents/graph.yaml')).toContain('- module: ./tools/convert-temperature.ts');
    expect(read('my-agents/tools/convert-temperature.ts')).toContain("import { defineTool } from '@troupe/tools';");
    expect(read('my-agents/test/convert-temperature.test.ts')).toContain("import { createScriptedProvider } from '@troupe/providers/testing';");
    expect(read('my-agents/.env.example')).toContain('# OPENAI_API_KEY=');
    expect(JSON.parse(read('my-agents/package.json'))).toEqual({
      name: 'my-agents',
      version: '0.1.0',
      private: true,
      type: 'module',
      scripts: { start: 'troupe run graph.yaml', validate: 'troupe graph validate graph.yaml', test: 'tsx --test test/*.test.ts', typecheck: 'tsc' },
      dependencies: { '@troupe/cli': '^1.2.3', '@troupe/core': '^1.2.3', '@troupe/providers': '^1.2.3', '@troupe/tools': '^1.2.3', zod: '^4.6.7' },
      devDependencies: { '@types/node': '^20.19.43', tsx: '^4.23.15', typescript: '^5.9.3' },
    });
    expect(read('my-agents/.gitignore')).toBe('node_modules/\n.env\n.troupe/\n');
  });

  it('refuses to write over existing files, and writes nothing', () => {
    mkdirSync(join(cwd, 'p/tools'), { recursive: true });
    writeFileSync(join(cwd, 'p/README.md'), 'mine\n');
    writeFileSync(join(cwd, 'p/tools/convert-temperature.ts'), 'mine\n');
    const io = captureIo();
    expect(init('p', io)).toBe(2);
    expect(io.stderrText()).toBe(
      'troupe init: p already has tools/convert-temperature.ts, README.md; init writes over no file (move them away, or give another directory: troupe init <dir>)\n',
    );
    expect(readdirSync(join(cwd, 'p')).sort()).toEqual(['README.md', 'tools']);
    expect(read('p/README.md')).toBe('mine\n');
  });

  it('keeps an existing package.json and .gitignore, adding only what they lack', () => {
    writeFileSync(
      join(cwd, 'package.json'),
      JSON.stringify({
        name: 'app',
        type: 'commonjs',
        scripts: { test: 'echo "Error: no test specified" && exit 1', start: 'node .' },
        dependencies: { zod: '4.6.7' },
        devDependencies: { tsx: '4.23.15' },
      }),
    );
    writeFileSync(join(cwd, '.gitignore'), 'dist\nnode_modules');
    const io = captureIo();
    expect(init('.', io)).toBe(0);
    expect(JSON.parse(read('package.json'))).toEqual({
      name: 'app',
      type: 'commonjs',
      scripts: { test: 'tsx --test test/*.test.ts', start: 'node .', validate: 'troupe graph validate graph.yaml', typecheck: 'tsc' },
      dependencies: { zod: '4.6.7', '@troupe/cli': '^1.2.3', '@troupe/core': '^1.2.3', '@troupe/providers': '^1.2.3', '@troupe/tools': '^1.2.3' },
      devDependencies: { tsx: '4.23.15', '@types/node': '^20.19.43', typescript: '^5.9.3' },
    });
    expect(read('.gitignore')).toBe('dist\nnode_modules\n.env\n.troupe/\n');
    expect(io.stdoutText()).toContain(
      '\n  package.json                      added scripts validate, test, typecheck; dependencies @troupe/cli, @troupe/core, @troupe/providers, @troupe/tools; devDependencies @types/node, typescript\n',
    );
    expect(io.stdoutText()).toMatch(/\nNext:\n {2}npm install\n {2}npx troupe run graph\.yaml/);
  });

  it('stops at a directory that is a file, or a package.json that is not JSON', () => {
    writeFileSync(join(cwd, 'taken'), '');
    const file = captureIo();
    expect(init('taken', file)).toBe(2);
    expect(file.stderrText()).toBe('troupe init: taken is a file, not a directory\n');

    mkdirSync(join(cwd, 'broken'));
    writeFileSync(join(cwd, 'broken/package.json'), '{ nope');
    const broken = captureIo();
    expect(init('broken', broken)).toBe(2);
    expect(broken.stderrText()).toMatch(/^troupe init: broken\/package\.json is not valid JSON: /);
    expect(existsSync(join(cwd, 'broken/graph.yaml'))).toBe(false);
  });

  it('is the init command of troupe', async () => {
    const io = captureIo();
    expect(await runCli(['init', join(cwd, 'via-cli')], io)).toBe(0);
    expect(existsSync(join(cwd, 'via-cli/graph.yaml'))).toBe(true);
  });
});

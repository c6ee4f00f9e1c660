/**
 * Troupe in someone else's project, as the README tells it: every package is packed with
 * `npm pack` (only its built files, manifests with real versions), the tarballs are installed
 * into a new project outside the monorepo with one `npm install` (third-party packages from the
 * registry), then, in that project, `npx troupe init` scaffolds it, `npx troupe run` runs the
 * scaffolded graph offline (its TypeScript tool loaded from the graph file), the scaffolded
 * `npm test` passes, `tsc` type-checks it against the packed type declarations, and a TypeScript
 * script using the library (`loadGraphFile`, `createRuntime`) runs with tsx and type-checks.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../../../../', import.meta.url));
const PACKAGES = ['chat', 'cli', 'core', 'dashboard', 'mcp', 'nats', 'otel', 'providers', 'runtime', 'tools'];

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** The environment without the npm_* variables of the `npm test` running this, which would steer the nested npm, nor nx's FORCE_COLOR. */
const ENV = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_') && name !== 'FORCE_COLOR'));

function run(command: string, args: readonly string[], cwd: string): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, env: { ...ENV, NO_COLOR: '1' }, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr });
    });
  });
}

/** Fails with everything the command wrote when it did not exit 0. */
function ok(ran: Ran): Ran {
  expect(ran.code, `exit ${ran.code}\n${ran.stdout}\n${ran.stderr}`).toBe(0);
  return ran;
}

let work = '';
let project = '';
let packed: { name: string; version: string; files: { path: string }[] }[] = [];

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'troupe-packaging-'));
  const packs = join(work, 'packs');
  project = join(work, 'project');
  mkdirSync(packs);
  mkdirSync(project);
  packed = JSON.parse(ok(await run('npm', ['pack', '--workspace', 'packages', '--pack-destination', packs, '--json'], REPO)).stdout) as typeof packed;
  // What `npm init -y` writes (CommonJS by default: the scaffold works in either kind of package).
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'consumer', version: '1.0.0', scripts: { test: 'echo "Error: no test specified" && exit 1' }, type: 'commonjs' }, null, 2),
  );
  const tarballs = readdirSync(packs).map((name) => join(packs, name));
  ok(
    await run(
      'npm',
      ['install', '--no-audit', '--no-fund', '--prefer-offline', ...tarballs, 'zod@4.6.7', 'tsx@4.23.15', 'typescript@5.9.3', '@types/node@20.19.43'],
      project,
    ),
  );
}, 600_000);

// Removing the project's node_modules (hundreds of MB) can take a while on a loaded machine.
afterAll(() => {
  if (work !== '') rmSync(work, { recursive: true, force: true });
}, 300_000);

describe('Troupe installed from packed tarballs', { timeout: 120_000 }, () => {
  it('packs each package with its built files and manifest only', () => {
    expect(packed.map((p) => `${p.name}@${p.version}`).sort()).toEqual(PACKAGES.map((name) => `@troupe/${name}@0.1.0`));
    for (const pack of packed) {
      const files = pack.files.map((file) => file.path);
      expect(files).toContain('package.json');
      expect(files).toContain('dist/index.js');
      expect(files).toContain('dist/index.d.ts');
      expect(
        files.filter((file) => !/^(dist\/|bin\/troupe\.js$|schema\/graph\.schema\.json$|assets\/network-bridge\.mjs$|package\.json$|README\.md$)/.test(file)),
        pack.name,
      ).toEqual([]);
    }
  });

  it('scaffolds a project with troupe init, runs its graph with its TypeScript tool, and passes its test and typecheck', async () => {
    const init = ok(await run('npx', ['troupe', 'init'], project));
    expect(init.stdout).toMatch(/^Created a Troupe project in \.:\n/);
    expect(init.stdout).toContain('package.json                      added scripts start, validate, test, typecheck\n');

    const answer = ok(await run('npx', ['troupe', 'run', 'graph.yaml', '--input', 'How warm is 21 °C in Fahrenheit?'], project));
    expect(answer.stdout).toBe('Let me convert that.\n21 °C is 69.8 °F.\n');
    expect(answer.stderr).toContain('[assistant] tool convert_temperature');

    const tested = ok(await run('npm', ['test'], project));
    expect(tested.stdout).toMatch(/^# pass 2$/m);
    expect(tested.stdout).toMatch(/^# fail 0$/m);

    ok(await run('npm', ['run', 'typecheck'], project));
    ok(await run('npx', ['troupe', 'graph', 'validate', 'graph.yaml'], project));
  });

  it('runs and type-checks a TypeScript script that uses the library', async () => {
    mkdirSync(join(project, 'scripts'), { recursive: true });
    writeFileSync(
      join(project, 'scripts/ask.mts'),
      [
        "import { createRuntime, loadGraphFile } from '@troupe/runtime';",
        '',
        "const graph = await loadGraphFile('graph.yaml');",
        'const runtime = createRuntime({ graph });',
        "const result = await runtime.run('How warm is 21 °C in Fahrenheit?').result;",
        'await runtime.close();',
        "const tools: string[] = graph.agents['assistant']?.tools ?? [];",
        'console.log(JSON.stringify({ status: result.status, text: result.text, tools }));',
        '',
      ].join('\n'),
    );
    const ran = ok(await run('npx', ['tsx', 'scripts/ask.mts'], project));
    expect(JSON.parse(ran.stdout)).toEqual({ status: 'done', text: '21 °C is 69.8 °F.', tools: ['convert_temperature'] });
    ok(
      await run(
        'npx',
        [
          'tsc',
          '--noEmit',
          '--strict',
          '--skipLibCheck',
          '--target',
          'es2023',
          '--module',
          'nodenext',
          '--moduleResolution',
          'nodenext',
          '--types',
          'node',
          'scripts/ask.mts',
        ],
        project,
      ),
    );
  });
});

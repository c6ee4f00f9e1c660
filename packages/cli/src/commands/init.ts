import { appendFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import type { CliIo } from '../cli-io.js';
import { ExitCode } from '../exit-code.js';
import { SCAFFOLD_IGNORES, SCAFFOLD_INPUT, SCAFFOLD_SCRIPTS, scaffoldDependencies, scaffoldFiles } from '../project/scaffold-files.js';

/** What `troupe init` was asked to do. */
export interface InitCommandOptions {
  /** The project directory (created when missing), relative to `cwd`. */
  dir: string;
  cwd: string;
  /** The Troupe version the new project depends on (this CLI's). */
  troupeVersion: string;
}

type PackageJson = Record<string, unknown>;

/** The test script `npm init` writes. */
const NPM_INIT_TEST = /^echo "Error: no test specified" && exit 1$/;

/**
 * `troupe init [dir]`: scaffolds a Troupe project in `dir` (see `scaffoldFiles`): the files are
 * written only when none of them exists (else nothing is written and it exits 2, naming them);
 * an existing package.json keeps everything it has (but the failing test script `npm init`
 * writes) and gets the scripts and dependencies it lacks, an existing .gitignore the lines it
 * lacks. Prints what it wrote and the next commands.
 */
export function initCommand(options: InitCommandOptions, io: CliIo): ExitCode {
  const root = resolve(options.cwd, options.dir);
  const shown = relative(options.cwd, root) || '.';
  if (statSync(root, { throwIfNoEntry: false })?.isDirectory() === false) {
    io.stderr(`troupe init: ${shown} is a file, not a directory\n`);
    return ExitCode.BadInput;
  }
  const files = scaffoldFiles(packageName(root));
  const existing = files.filter((file) => statSync(join(root, file.path), { throwIfNoEntry: false }) !== undefined).map((file) => file.path);
  if (existing.length > 0) {
    io.stderr(
      `troupe init: ${shown} already has ${existing.join(', ')}; init writes over no file (move ${existing.length === 1 ? 'it' : 'them'} away, or give another directory: troupe init <dir>)\n`,
    );
    return ExitCode.BadInput;
  }
  const manifestFile = join(root, 'package.json');
  const current = readPackageJson(manifestFile);
  if (typeof current === 'string') {
    io.stderr(`troupe init: ${join(shown, 'package.json')} ${current}\n`);
    return ExitCode.BadInput;
  }
  const manifest = mergedPackageJson(current, packageName(root), options.troupeVersion);

  for (const file of files) {
    mkdirSync(dirname(join(root, file.path)), { recursive: true });
    writeFileSync(join(root, file.path), file.content, { flag: 'wx' });
  }
  writeFileSync(manifestFile, `${JSON.stringify(manifest.json, null, 2)}\n`);
  const ignored = addIgnores(join(root, '.gitignore'));

  const width = Math.max(...files.map((file) => file.path.length), 'package.json'.length) + 2;
  const lines = [
    `Created a Troupe project in ${shown}:`,
    ...files.map((file) => `  ${file.path.padEnd(width)}${file.about}`),
    `  ${'package.json'.padEnd(width)}${current === undefined ? `new (scripts ${Object.keys(SCAFFOLD_SCRIPTS).join(', ')})` : manifest.added.length === 0 ? 'unchanged' : `added ${manifest.added.join('; ')}`}`,
    `  ${'.gitignore'.padEnd(width)}${ignored.length === 0 ? 'unchanged' : `added ${ignored.join(', ')}`}`,
    '',
    'Next:',
    ...(shown === '.' ? [] : [`  cd ${shown}`]),
    ...(manifest.needsInstall ? ['  npm install'] : []),
    `  npx troupe run graph.yaml --input "${SCAFFOLD_INPUT}"`,
    '  npm test',
  ];
  io.stdout(`${lines.join('\n')}\n`);
  return ExitCode.Ok;
}

/** The package.json in the directory: `undefined` when there is none, a reason when it cannot be used. */
function readPackageJson(file: string): PackageJson | undefined | string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? undefined : `cannot be read: ${(error as Error).message}`;
  }
  try {
    const json: unknown = JSON.parse(text);
    return typeof json === 'object' && json !== null && !Array.isArray(json) ? (json as PackageJson) : 'is not a JSON object';
  } catch (error) {
    return `is not valid JSON: ${(error as Error).message}`;
  }
}

/** `current` (or a new manifest) with the scaffold's scripts and dependencies it lacks; what was added, and whether npm install is due. */
function mergedPackageJson(
  current: PackageJson | undefined,
  name: string,
  troupeVersion: string,
): { json: PackageJson; added: string[]; needsInstall: boolean } {
  const json: PackageJson = current ?? { name, version: '0.1.0', private: true, type: 'module' };
  const added: string[] = [];
  let needsInstall = current === undefined;
  const section = (key: string): Record<string, unknown> => {
    const value = json[key];
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
    json[key] = {};
    return json[key] as Record<string, unknown>;
  };
  const scripts = section('scripts');
  // `npm init` writes a test script that only fails; it is replaced, every other script kept.
  const newScripts = Object.entries(SCAFFOLD_SCRIPTS).filter(
    ([script]) => scripts[script] === undefined || (script === 'test' && NPM_INIT_TEST.test(String(scripts[script]))),
  );
  for (const [script, command] of newScripts) scripts[script] = command;
  if (newScripts.length > 0) added.push(`scripts ${newScripts.map(([script]) => script).join(', ')}`);
  const wanted = scaffoldDependencies(troupeVersion);
  const has = (dependency: string): boolean =>
    ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'].some(
      (key) => (json[key] as Record<string, unknown> | undefined)?.[dependency] !== undefined,
    );
  for (const key of ['dependencies', 'devDependencies'] as const) {
    const missing = Object.entries(wanted[key]).filter(([dependency]) => !has(dependency));
    if (missing.length === 0) continue;
    const target = section(key);
    for (const [dependency, range] of missing) target[dependency] = range;
    added.push(`${key} ${missing.map(([dependency]) => dependency).join(', ')}`);
    needsInstall = true;
  }
  return { json, added, needsInstall };
}

/** Appends the ignore lines .gitignore lacks (creating it); returns them. */
function addIgnores(file: string): string[] {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    // No .gitignore yet: it is created.
  }
  const present = new Set(text.split('\n').map((line) => line.trim()));
  const missing = SCAFFOLD_IGNORES.filter((line) => !present.has(line) && !present.has(line.replace(/\/$/, '')));
  if (missing.length > 0) appendFileSync(file, `${text === '' || text.endsWith('\n') ? '' : '\n'}${missing.join('\n')}\n`);
  return missing;
}

/** A valid npm package name from a directory name. */
function packageName(dir: string): string {
  const name = basename(dir)
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[._-]+/, '');
  return name === '' ? 'troupe-project' : name;
}

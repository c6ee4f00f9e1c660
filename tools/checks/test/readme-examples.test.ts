/**
 * The TypeScript samples of the READMEs compile: every ```ts block of the root README and of each
 * package's README is type-checked as a module of the workspace, against the built packages, with
 * the repository's strict compiler options (as the MCP SDK compiles its `*.examples.ts`). A sample
 * that calls an API the code no longer has, or calls it wrongly, fails here with its README line.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { codeBlocks } from './code-blocks.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');

const markdownFiles = [
  join(root, 'README.md'),
  ...readdirSync(join(root, 'packages'))
    .map((pkg) => join(root, 'packages', pkg, 'README.md'))
    .filter((file) => existsSync(file)),
];

interface Sample {
  /** Where a reader finds it: `README.md:72`. */
  name: string;
  /** The virtual module compiled for it, next to its README so imports resolve from there. */
  path: string;
  source: string;
  /** Lines of prelude above the sample's own first line in `source`. */
  preludeLines: number;
  line: number;
}

const samples: Sample[] = markdownFiles.flatMap((file) =>
  codeBlocks(readFileSync(file, 'utf8'), ['ts', 'typescript']).map((block, index) => {
    const prelude = block.prelude === '' ? '' : `${block.prelude}\n`;
    return {
      name: `${relative(root, file)}:${block.line}`,
      path: join(dirname(file), `readme-sample-${index + 1}.ts`),
      source: `${prelude}${block.code}\nexport {};\n`,
      preludeLines: prelude === '' ? 0 : prelude.split('\n').length - 1,
      line: block.line,
    };
  }),
);

/** The repository's compiler options, for a check that emits nothing. */
function compilerOptions(): ts.CompilerOptions {
  const configFile = join(root, 'tsconfig.base.json');
  const { config } = ts.readConfigFile(configFile, ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, root);
  return { ...options, noEmit: true, composite: false, declaration: false, declarationMap: false, sourceMap: false };
}

/** Type-checks every sample in one program; the messages of each, with their README lines. */
function check(): Map<Sample, string[]> {
  const options = compilerOptions();
  const byPath = new Map(samples.map((sample) => [sample.path, sample]));
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (file) => byPath.has(file) || fileExists.call(host, file);
  host.readFile = (file) => byPath.get(file)?.source ?? readFile.call(host, file);
  host.getSourceFile = (file, language, onError) => {
    const sample = byPath.get(file);
    return sample === undefined ? getSourceFile.call(host, file, language, onError) : ts.createSourceFile(file, sample.source, language);
  };
  const program = ts.createProgram([...byPath.keys()], options, host);
  const problems = new Map<Sample, string[]>();
  for (const sample of samples) {
    const file = program.getSourceFile(sample.path);
    const diagnostics = file === undefined ? [] : [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)];
    problems.set(
      sample,
      diagnostics.map((diagnostic) => {
        const { line } = diagnostic.file?.getLineAndCharacterOfPosition(diagnostic.start ?? 0) ?? { line: 0 };
        return `line ${sample.line + line - sample.preludeLines + 1}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
      }),
    );
  }
  return problems;
}

describe('README samples', () => {
  it('finds the samples', () => {
    expect(samples.length).toBeGreaterThanOrEqual(4);
  });

  const problems = check();
  it.each(samples.map((sample) => [sample.name, sample] as const))('%s type-checks', (_name, sample) => {
    expect(problems.get(sample)).toEqual([]);
  });
});

/**
 * Proves, in a real terminal (tmux), what a person sees of `troupe run`: the README's Quick Start
 * answer stays on screen after the run (regression: the live tree erased it); in a 60-column
 * window the answer wraps and no row of the tree is left behind; a pipeline's tree shows its steps
 * in order with map items under their step while it runs; the approval menu takes Enter as "Yes,
 * once", asks again after a typo, aborts on the first Ctrl-C and leaves the run waiting on Esc; a
 * question is answered by typing a line.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURES, TROUPE_BIN } from '../spawn-troupe.js';
import { TmuxSession } from './tmux.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const RUNS = mkdtempSync(join(tmpdir(), 'troupe-terminal-runs-'));
const troupe = (args: string): string => `node ${TROUPE_BIN} ${args} --runs-dir ${RUNS}`;

let session: TmuxSession | undefined;
afterEach(async () => {
  await session?.close();
  session = undefined;
});

async function terminal(columns: number, rows: number, cwd = FIXTURES): Promise<TmuxSession> {
  session = await TmuxSession.start({ columns, rows, cwd });
  return session;
}

/** Rows of the tree the live area draws (a mark, a name, ` · `), not the summary line. */
const TREE_ROW = /^(?![✓✗■] (done|failed|aborted|stopped)\b)[│├└ ]*[●✓✗■?·] \S+ · /;

describe('troupe run in a terminal', () => {
  it("keeps the Quick Start's answer on screen after the run", async () => {
    const tmux = await terminal(140, 40, ROOT);
    await tmux.command('npx troupe run apps/examples/hello.yaml --input "What time is it?"');
    const rows = await tmux.waitFor(/EXIT=\d+/);
    const shown = rows.join('\n');
    expect(shown).toContain('EXIT=0');
    expect(shown).toMatch(
      /\nLet me look at the clock\.\n {2}⎿ clock\(\) → \d{4}-\d\d-\d\dT[\d:.]+Z\nThe clock says it is \d{4}-\d\d-\d\dT[\d:.]+Z\.\n✓ done · 2 turns · 67 tokens · \$0\.0000 · \d+\.\d\ds · run run_\w+\nEXIT=0/,
    );
    expect(rows.filter((row) => TREE_ROW.test(row))).toEqual([]);
  });

  it('wraps the answer in a 60-column window and leaves no tree rows behind', async () => {
    const tmux = await terminal(60, 24);
    await tmux.command(troupe('run long-answer.yaml --input "Should we adopt TypeScript 7?"'));
    const running = await tmux.waitFor(/researcher#1 · thinking/);
    expect(running.every((row) => row.length <= 60)).toBe(true);
    const rows = await tmux.waitFor(/EXIT=\d+/);
    expect(rows.join('\n')).toContain('EXIT=0');
    expect(rows.every((row) => row.length <= 60)).toBe(true);
    expect(rows.filter((row) => TREE_ROW.test(row))).toEqual([]);
    const answerStart = rows.findIndex((row) => row.startsWith('Recommendation:'));
    const answer = rows
      .slice(
        answerStart,
        rows.findIndex((row) => row.startsWith('✓ done')),
      )
      .join(' ');
    expect(answer).toBe(
      "Recommendation: adopt TypeScript 7 behind a flag in continuous integration first, keep 5.9 for the tools that need the compiler API, and move the rest once lint plugins follow. Last word from the specialists: Tools that need the compiler API (lint plugins, nx's TypeScript plugin) break; keep 5.9 for them until they move.",
    );
  });

  it("draws a pipeline's tree in step order, with map items under their step", async () => {
    const tmux = await terminal(100, 30);
    await tmux.command(troupe('run slow-pipeline.yaml --input actors'));
    const rows = await tmux.waitFor(/#2 · thinking/);
    const tree = rows.filter((row) => TREE_ROW.test(row));
    expect(tree).toEqual([
      expect.stringMatching(/^● report · 2 running, 1 done$/),
      expect.stringMatching(/^├ ✓ outline · done · 1 turn · \d+ tokens$/),
      expect.stringMatching(/^├ ● sections · 2 running$/),
      expect.stringMatching(/^│ ├ ● #1 · thinking [\d.]+s · 1 turn$/),
      expect.stringMatching(/^│ └ ● #2 · thinking [\d.]+s · 1 turn$/),
      '├ · review · pending',
      '│ ├ · style · pending',
      '│ └ · facts · pending',
      '└ · edit · pending',
    ]);
    await tmux.keys('C-c');
    expect((await tmux.waitFor(/EXIT=\d+/)).join('\n')).toContain('EXIT=130');
  });

  it('takes Enter at the approval menu as "Yes, once"', async () => {
    const tmux = await terminal(100, 30);
    await tmux.command(troupe('run asks.yaml --input go'));
    await tmux.waitFor(/❯ Yes, once/);
    await tmux.keys('Enter');
    const shown = (await tmux.waitFor(/EXIT=\d+/)).join('\n');
    expect(shown).toMatch(/✓ allowed once: echo\(ping\)\n {2}⎿ echo\(ping\) → ping\nApproved and echoed: ping\n✓ done · /);
    expect(shown).toContain('EXIT=0');
  });

  it('asks again after a typo, and aborts the run on the first Ctrl-C', async () => {
    const tmux = await terminal(100, 30);
    await tmux.command(troupe('run asks.yaml --input go'));
    await tmux.waitFor(/❯ Yes, once/);
    await tmux.keys({ text: 'x' });
    const asked = await tmux.waitFor(/press y, a, n or v/);
    expect(asked.join('\n')).toContain('careful wants to run echo(ping)');
    await tmux.keys('C-c');
    const shown = (await tmux.waitFor(/EXIT=\d+/)).join('\n');
    expect(shown).toMatch(/■ aborted · 1 turn · /);
    expect(shown).toContain('EXIT=130');
    expect(shown).not.toContain('allowed');
  });

  it('leaves the run waiting on Esc, saying how to answer it later', async () => {
    const tmux = await terminal(120, 30);
    await tmux.command(troupe('run asks.yaml --input go'));
    await tmux.waitFor(/❯ Yes, once/);
    await tmux.keys('Escape');
    const shown = (await tmux.waitFor(/EXIT=\d+/)).join('\n');
    expect(shown).toMatch(
      /troupe: run run_\w+ is waiting; it is saved and can be answered later:\n {2}careful asks to run echo \{"text":"ping"\}\n {4}troupe approve run_\w+ call_1_1 allow_once --runs-dir /,
    );
    expect(shown).toContain('EXIT=3');
  });

  it('takes a typed answer to a question', async () => {
    const tmux = await terminal(100, 30);
    await tmux.command(troupe('run asks-name.yaml --input hi'));
    await tmux.waitFor(/asker asks: What is your name\?/);
    await tmux.keys('Enter');
    await tmux.waitFor(/type an answer, then Enter/);
    await tmux.keys({ text: 'Ada Lovelace' }, 'Enter');
    const shown = (await tmux.waitFor(/EXIT=\d+/)).join('\n');
    expect(shown).toMatch(/⎿ ask_user\(What is your name\?\) → Ada Lovelace\nHello, Ada Lovelace!\n✓ done · 2 turns · /);
    expect(shown).toContain('EXIT=0');
  });
});

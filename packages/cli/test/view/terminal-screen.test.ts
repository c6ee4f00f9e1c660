/**
 * Proves the terminal screen keeps everything a run printed on screen, as a terminal emulator
 * (headless xterm) shows it: the answer streams above the live area, notes never split a line of
 * it, the live area is redrawn in place and removed at the end, rows wider than the terminal are
 * cut (the unfinished line is word-wrapped), a terminal narrowed or widened mid-run is redrawn
 * without stale rows and without erasing the answer, and a live area taller than the terminal
 * keeps its bottom rows. Regression: the live tree used to erase the streamed answer.
 */
import { describe, expect, it } from 'vitest';
import { terminalScreen } from '../../src/view/terminal-screen.js';
import { emulatedTerminal } from './xterm-stream.js';

function screenOn(columns: number, rows = 24) {
  const terminal = emulatedTerminal(columns, rows);
  const screen = terminalScreen(terminal.out, terminal.stream, { outIsTerminal: true, frameMs: 0 });
  return { terminal, screen };
}

describe('terminalScreen', () => {
  it('streams the answer above a live area redrawn in place, and removes only the area at the end', async () => {
    const { terminal, screen } = screenOn(60);
    screen.status(['● assistant · thinking 0.1s']);
    screen.write('Let me look ');
    screen.write('at the clock.');
    expect(await terminal.lines()).toEqual(['Let me look at the clock.', '● assistant · thinking 0.1s']);
    screen.endLine();
    screen.note('  ⎿ clock() → 13:20');
    screen.status(['● assistant · running clock 0.2s']);
    screen.status(['● assistant · thinking 0.3s']);
    screen.write('It is 13:20.\n');
    expect(await terminal.lines()).toEqual(['Let me look at the clock.', '  ⎿ clock() → 13:20', 'It is 13:20.', '● assistant · thinking 0.3s']);
    screen.close();
    expect(await terminal.lines()).toEqual(['Let me look at the clock.', '  ⎿ clock() → 13:20', 'It is 13:20.']);
  });

  it('holds a note that arrives mid-line until the line ends', async () => {
    const { terminal, screen } = screenOn(60);
    screen.write('The answer is');
    screen.note('  ⎿ lead/researcher#1 search() → 3 results');
    screen.write(' 42.');
    screen.endLine();
    screen.close();
    expect(await terminal.lines()).toEqual(['The answer is 42.', '  ⎿ lead/researcher#1 search() → 3 results']);
  });

  it('word-wraps the answer and cuts live rows to the width', async () => {
    const { terminal, screen } = screenOn(30);
    screen.status(['● researcher#1 · running web_search 3.0s · 2 turns · 1,234 tokens']);
    screen.write('Recommendation: adopt it behind a flag, then measure the build.');
    const lines = await terminal.lines();
    expect(lines).toEqual(['Recommendation: adopt it ', 'behind a flag, then measure ', 'the build.', '● researcher#1 · running web…']);
    screen.close();
    expect((await terminal.lines()).map((line) => line.trimEnd())).toEqual(['Recommendation: adopt it', 'behind a flag, then measure', 'the build.']);
  });

  it('redraws after the terminal narrows or widens, erasing neither the answer nor leaving stale rows', async () => {
    const { terminal, screen } = screenOn(80);
    screen.write('First line of the answer, long enough to be re-flowed when narrowed.\n');
    const status = [
      '● lead · running delegate_to_researcher, delegate_to_critic 0.4s · 1 turn · 46 tokens',
      '├ ● researcher#1 · thinking 0.4s · 1 turn',
      '└ ● critic#1 · thinking 0.4s · 1 turn',
    ];
    screen.status(status);
    await terminal.resize(40);
    screen.status(status.map((row) => row.replace('0.4s', '0.9s')));
    const narrowed = await terminal.lines();
    expect(narrowed.slice(0, 2).join('')).toBe('First line of the answer, long enough to be re-flowed when narrowed.');
    expect(narrowed.slice(2)).toEqual([
      '● lead · running delegate_to_researche…',
      '├ ● researcher#1 · thinking 0.9s · 1 t…',
      '└ ● critic#1 · thinking 0.9s · 1 turn',
    ]);
    await terminal.resize(100);
    screen.status(['● lead · thinking 1.0s · 2 turns']);
    expect(await terminal.lines()).toEqual(['First line of the answer, long enough to be re-flowed when narrowed.', '● lead · thinking 1.0s · 2 turns']);
    screen.close();
    expect(await terminal.lines()).toEqual(['First line of the answer, long enough to be re-flowed when narrowed.']);
  });

  it('keeps the bottom of a live area taller than the terminal (the cursor row below it), and a prompt below the status', async () => {
    const { terminal, screen } = screenOn(40, 6);
    screen.status(Array.from({ length: 8 }, (_, i) => `row ${i + 1}`));
    screen.prompt(['? approve?', '  ❯ Yes, once']);
    expect(await terminal.lines()).toEqual(['row 6', 'row 7', 'row 8', '? approve?', '  ❯ Yes, once']);
    screen.prompt(undefined);
    screen.status(['row 1']);
    expect((await terminal.lines()).at(-1)).toBe('row 1');
  });

  it('passes the answer straight on when standard output is not the terminal', async () => {
    const terminal = emulatedTerminal(40);
    let out = '';
    const screen = terminalScreen((text) => (out += text), terminal.stream, { outIsTerminal: false, frameMs: 0 });
    screen.status(['● a · thinking']);
    screen.write('partial');
    screen.note('  ⎿ echo() → ok');
    screen.close();
    expect(out).toBe('partial');
    expect(await terminal.lines()).toEqual(['  ⎿ echo() → ok']);
  });
});

/**
 * Proves the screen off a terminal puts every progress line on its own line even when stdout and
 * stderr go to the same place (regression: `Let me look at the clock.[assistant] tool_executing`),
 * passes the text on a line at a time, ends the last line on close, and streams as it arrives when
 * only stdout is a terminal.
 */
import { describe, expect, it } from 'vitest';
import { plainScreen } from '../../src/view/plain-screen.js';

describe('plainScreen', () => {
  it('never lets a note split a line of the text', () => {
    let both = '';
    const screen = plainScreen(
      (text) => (both += text),
      (text) => (both += text),
    );
    screen.write('Let me look ');
    screen.write('at the clock.');
    screen.note('[assistant] tool_executing');
    screen.write('\nIt is noon');
    screen.close();
    screen.close();
    expect(both).toBe('[assistant] tool_executing\nLet me look at the clock.\nIt is noon\n');
  });

  it('streams to a terminal on stdout and ends the line on close', () => {
    const out: string[] = [];
    const screen = plainScreen(
      (text) => out.push(text),
      () => undefined,
      { streamOutput: true },
    );
    screen.write('It is ');
    screen.write('noon');
    screen.close();
    expect(out).toEqual(['It is ', 'noon', '\n']);
  });
});

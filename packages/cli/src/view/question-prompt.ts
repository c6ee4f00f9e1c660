import type { KeyPress } from '../cli-io.js';
import { printable } from './fit.js';
import type { PromptSession } from './prompt.js';
import type { Style } from './style.js';

/**
 * The question prompt: one line of text typed after `›`, Enter sends it. Backspace deletes,
 * Ctrl-U clears; an empty answer is not sent (a hint says to type one).
 */
export function questionPrompt(ask: { path: string; question: string }, style: Style, width: () => number): PromptSession<string> {
  let answer = '';
  let empty = false;
  return {
    render() {
      // Keep the end of a long answer in view, where the typing happens.
      const room = Math.max(8, width() - 6);
      const shown = answer.length > room ? `…${answer.slice(answer.length - room + 1)}` : answer;
      return [
        `${style.yellow('?')} ${style.bold(ask.path)} asks: ${printable(ask.question)}`,
        `  ${style.cyan('›')} ${shown}${style.cyan('▏')}`,
        empty ? style.yellow('  type an answer, then Enter') : style.dim('  Enter sends · Esc leaves the run waiting · Ctrl-C aborts'),
      ];
    },
    onKey(key: KeyPress) {
      empty = false;
      if (key.name === 'return' || key.name === 'enter') {
        if (answer.trim() !== '') return answer;
        empty = true;
      } else if (key.name === 'backspace') answer = [...answer].slice(0, -1).join('');
      else if (key.ctrl === true && key.name === 'u') answer = '';
      else if (key.ctrl !== true && key.meta !== true) answer += printable(key.sequence);
      return undefined;
    },
  };
}

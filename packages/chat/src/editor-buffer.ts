/** The input editor's text and where its history browsing is: plain data, changed by the functions below. */
export interface EditorBuffer {
  text: string;
  /** The history entry shown (an index into the history), or undefined when editing new text. */
  recalled: number | undefined;
  /** What was typed before browsing the history, given back when browsing past the newest entry. */
  draft: string;
  /** Earlier inputs, oldest first. */
  history: string[];
}

/** An empty buffer. */
export function emptyBuffer(): EditorBuffer {
  return { text: '', recalled: undefined, draft: '', history: [] };
}

/** Types `input` at the end (a paste may hold newlines; carriage returns become newlines). */
export function typeText(buffer: EditorBuffer, input: string): EditorBuffer {
  return { ...buffer, text: buffer.text + input.replace(/\r\n?/g, '\n'), recalled: undefined };
}

/** Shift+Enter / Alt+Enter: a new line. */
export function newLine(buffer: EditorBuffer): EditorBuffer {
  return typeText(buffer, '\n');
}

/** Backspace: the last character goes. */
export function backspace(buffer: EditorBuffer): EditorBuffer {
  return { ...buffer, text: [...buffer.text].slice(0, -1).join(''), recalled: undefined };
}

/** Enter: the text is sent, so the buffer empties and its history gains it (a repeat of the last input is kept once). */
export function submitted(buffer: EditorBuffer): EditorBuffer {
  const text = buffer.text.replace(/\s+$/, '');
  const history = text === '' || buffer.history.at(-1) === text ? buffer.history : [...buffer.history, text];
  return { text: '', recalled: undefined, draft: '', history };
}

/** Ctrl+P (`-1`) / Ctrl+N (`1`): the previous or next earlier input. */
export function recall(buffer: EditorBuffer, step: -1 | 1): EditorBuffer {
  const history = buffer.history;
  if (history.length === 0) return buffer;
  const from = buffer.recalled ?? history.length;
  const to = from + step;
  if (to < 0) return buffer;
  if (to >= history.length) return { ...buffer, text: buffer.recalled === undefined ? buffer.text : buffer.draft, recalled: undefined, draft: '' };
  return { ...buffer, text: history[to] ?? '', recalled: to, draft: buffer.recalled === undefined ? buffer.text : buffer.draft };
}

import { Box, type Key, useApp, useInput, useStdin, useStdout } from 'ink';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { addNotice, answered, approvalChoices, clearView, modelSwitched, selectBlock, setApproval, setMode, toggleBlock, trustTool } from '../chat-actions.js';
import type { ChatSession } from '../chat-session.js';
import { backspace, emptyBuffer, newLine, recall, submitted, typeText, type EditorBuffer } from '../editor-buffer.js';
import { executePlanMessage, latestPlan } from '../plan-mode.js';
import { decodeRawKey, isMouseReport } from '../raw-keys.js';
import { HELP_TEXT, parseSlashCommand } from '../slash-command.js';
import { AskPrompt, askLines, rowsAt } from './ask-prompt.js';
import { ConversationView, conversationRows } from './conversation-view.js';
import { InputBox } from './input-box.js';
import { StatusBar } from './status-bar.js';
import { useChatSession } from './use-chat-session.js';

/** What the app needs of the terminal around it. */
export interface ChatTerminal {
  /** Leaves the full screen and raw mode for an external program (the editor); `resume` comes back. */
  suspend(): void;
  resume(): void;
}

/** Props of {@link ChatApp}. */
export interface ChatAppProps {
  session: ChatSession;
  /** Opens the external editor (`/editor`) while the UI is suspended: the saved text, or undefined to cancel. */
  openEditor: () => string | undefined;
  terminal?: ChatTerminal;
  /** The terminal's size when stdout does not say (tests). */
  size?: { columns: number; rows: number };
}

const SCROLL_WHEEL = 3;

/** The full-screen chat: conversation, asks, input editor and status bar, driven by keys. */
export function ChatApp({ session, openEditor, terminal, size }: ChatAppProps) {
  const { exit } = useApp();
  const { stdout } = useStdout();
  const { internal_eventEmitter: input } = useStdin();
  const [state, update] = useChatSession(session);
  // Keys can arrive faster than renders: the handler reads the buffer from a ref, never a stale render's copy.
  const bufferRef = useRef<EditorBuffer>(emptyBuffer());
  const [buffer, setBufferState] = useState<EditorBuffer>(bufferRef.current);
  const setBuffer = useCallback((change: EditorBuffer | ((current: EditorBuffer) => EditorBuffer)) => {
    bufferRef.current = typeof change === 'function' ? change(bufferRef.current) : change;
    setBufferState(bufferRef.current);
  }, []);
  const [scroll, setScroll] = useState(0);
  const [dims, setDims] = useState(() => ({ columns: size?.columns ?? stdout.columns ?? 80, rows: size?.rows ?? stdout.rows ?? 24 }));
  const quitArmed = useRef(false);

  // Resize re-lays out: the rows are computed again at the new width and height.
  useEffect(() => {
    if (size !== undefined) return;
    const onResize = (): void => setDims({ columns: stdout.columns ?? 80, rows: stdout.rows ?? 24 });
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout, size]);

  const width = Math.max(20, dims.columns);
  const ask = state.asks[0];
  const rows = useMemo(
    () => conversationRows(state.blocks, { width, entry: state.entry, selected: state.selected }),
    [state.blocks, width, state.entry, state.selected],
  );
  const label = ask?.kind === 'question' ? 'answer › ' : '› ';
  // Rows as drawn at this width (long lines wrap), so the conversation gets exactly what is left.
  const inputRows =
    rowsAt(
      buffer.text.split('\n').map((line) => `${label}${line} `),
      width,
    ) + 1;
  const askRows = ask === undefined ? 0 : rowsAt(askLines(ask, state.approval, state.entry), width);
  const height = Math.max(3, dims.rows - inputRows - askRows - 1);
  const maxScroll = Math.max(0, rows.length - height);
  const scrollBy = useCallback((step: number) => setScroll((current) => Math.max(0, Math.min(maxScroll, current + step))), [maxScroll]);

  const fail = useCallback((error: unknown) => update((s) => addNotice(s, error instanceof Error ? error.message : String(error), 'error')), [update]);

  const toggleMode = useCallback(() => {
    const next = state.mode === 'plan' ? 'execute' : 'plan';
    session.setMode(next);
    update((s) => setMode(s, next));
    if (next === 'plan') {
      update((s) => addNotice(s, `Plan mode: read-only tools only (${session.toolNames().join(', ') || 'none'}); replies are labelled PLAN.`));
      return;
    }
    const plan = latestPlan(state);
    update((s) => addNotice(s, `Execute mode: every tool is back (${session.toolNames().join(', ')})${plan === undefined ? '' : '; carrying out the plan'}.`));
    if (plan !== undefined) session.send(executePlanMessage(plan)).catch(fail);
  }, [state, session, update, fail]);

  /** `/model [name]`: shows the model, or switches to `name` between turns (a model it cannot use changes nothing). */
  const switchModel = useCallback(
    (name: string | undefined) => {
      if (name === undefined) {
        update((s) => addNotice(s, `model: ${s.model} (/model provider:model, or a model of the graph by name, switches)`));
        return;
      }
      if (state.running) {
        update((s) => addNotice(s, `/model ${name}: the model can change between turns: wait for this one to end (or Esc); still on ${s.model}`, 'warn'));
        return;
      }
      session.switchModel(name).then(
        (next) => update((s) => modelSwitched(s, next.model, next.contextWindow)),
        (error: unknown) =>
          update((s) => addNotice(s, `/model ${name}: ${error instanceof Error ? error.message : String(error)}; still on ${s.model}`, 'error')),
      );
    },
    [state.running, session, update],
  );

  const submit = useCallback(
    (text: string) => {
      const command = parseSlashCommand(text);
      if (command === undefined) {
        setScroll(0);
        if (ask?.kind === 'question') {
          update((s) => answered(s, ask));
          session.reply(text, ask.path).catch(fail);
        } else session.send(text).catch(fail);
        return;
      }
      switch (command.type) {
        case 'quit':
          exit();
          return;
        case 'help':
          update((s) => addNotice(s, HELP_TEXT));
          return;
        case 'clear':
          update(clearView);
          setScroll(0);
          return;
        case 'plan':
          toggleMode();
          return;
        case 'model':
          switchModel(command.name);
          return;
        case 'approve':
          if (command.mode === undefined) update((s) => addNotice(s, `approvals: ${s.approval} (/approve on|smart|off)`));
          else {
            const mode = command.mode;
            update((s) => addNotice(setApproval(s, mode), `approvals: ${mode}`));
          }
          return;
        case 'editor': {
          terminal?.suspend();
          let edited: string | undefined;
          try {
            edited = openEditor();
          } finally {
            terminal?.resume();
          }
          if (edited === undefined) update((s) => addNotice(s, 'editor: empty file, nothing sent'));
          else submit(edited);
          return;
        }
        case 'unknown':
          update((s) => addNotice(s, `unknown command /${command.name} (/help lists them)`, 'warn'));
          return;
      }
    },
    [ask, session, update, fail, exit, toggleMode, switchModel, terminal, openEditor],
  );

  const answerPermission = useCallback(
    (key: string): boolean => {
      if (ask?.kind !== 'permission') return false;
      const choice = approvalChoices(state.approval).find((c) => c.key === key.toLowerCase());
      if (choice === undefined) return false;
      update((s) => {
        const next = answered(s, ask);
        return choice.trust === true ? trustTool(next, ask.toolName) : next;
      });
      session.approve(ask.callId, choice.decision, ask.path).catch(fail);
      return true;
    },
    [ask, state.approval, session, update, fail],
  );

  // Keys ink does not tell apart: F2 and the mouse wheel.
  const onRaw = (data: string): void => {
    const key = decodeRawKey(data);
    if (key?.type === 'f2') update(toggleBlock);
    else if (key?.type === 'wheel') scrollBy(-key.direction * SCROLL_WHEEL);
  };
  const onKey = (text: string, key: Key) => {
    if (isMouseReport(text) || decodeRawKey(text) !== undefined) return;
    // Keys typed while the app was busy (or starting) arrive as one chunk: replay them one by one.
    if (text.length > 1 && /[\r\n\u007f\b]/.test(text)) return typedChunk(text);
    const ctrlC = key.ctrl && text === 'c';
    if (!ctrlC) quitArmed.current = false;
    if (ctrlC || key.escape) {
      if (state.running) {
        session.abort().catch(fail);
        return;
      }
      if (!ctrlC) return;
      if (quitArmed.current) exit();
      else {
        quitArmed.current = true;
        update((s) => addNotice(s, 'Ctrl+C again to quit'));
      }
      return;
    }
    if (key.ctrl && text === 'q') return exit();
    if (key.return) {
      if (key.meta || key.shift) return setBuffer(newLine);
      sendBuffer();
      return;
    }
    if (key.tab && key.shift) return toggleMode();
    if (key.shift && key.leftArrow) return update((s) => selectBlock(s, -1));
    if (key.shift && key.rightArrow) return update((s) => selectBlock(s, 1));
    if (key.pageUp) return scrollBy(height - 1);
    if (key.pageDown) return scrollBy(-(height - 1));
    if (key.upArrow) return scrollBy(1);
    if (key.downArrow) return scrollBy(-1);
    if (key.ctrl && text === 'p') return setBuffer((b) => recall(b, -1));
    if (key.ctrl && text === 'n') return setBuffer((b) => recall(b, 1));
    if (key.backspace || key.delete) return setBuffer(backspace);
    if (key.ctrl || key.meta || key.tab || text === '') return;
    // An answer key of a permission request, when nothing is being typed.
    if (bufferRef.current.text === '' && answerPermission(text)) return;
    setBuffer((b) => typeText(b, text));
  };
  /** Enter: sends what was typed (nothing when it is blank). */
  const sendBuffer = (): void => {
    const typed = bufferRef.current.text;
    if (typed.trim() === '') return;
    setBuffer(submitted);
    submit(typed.replace(/\s+$/, ''));
  };
  /** A chunk of typed keys: backspaces delete, a line break at its end sends, inner ones start new lines (a paste). */
  const typedChunk = (chunk: string): void => {
    const chars = [...chunk];
    chars.forEach((char, i) => {
      if (char === '\u007f' || char === '\b') setBuffer(backspace);
      else if (char === '\r' || char === '\n') {
        if (i < chars.length - 1) setBuffer(newLine);
        else sendBuffer();
      } else setBuffer((b) => typeText(b, char));
    });
  };
  // Events re-render the app between keys, and ink re-subscribes a changed handler only in a later
  // effect: the listeners call the latest render's handlers through refs, never a stale closure.
  const handlers = useRef({ onKey, onRaw });
  handlers.current = { onKey, onRaw };
  useInput((text, key) => handlers.current.onKey(text, key));
  useEffect(() => {
    const listener = (data: string): void => handlers.current.onRaw(data);
    input.on('input', listener);
    return () => {
      input.off('input', listener);
    };
  }, [input]);

  return (
    <Box flexDirection="column" width={width} height={dims.rows}>
      <ConversationView rows={rows} height={height} scroll={Math.min(scroll, maxScroll)} />
      {ask === undefined ? null : <AskPrompt ask={ask} approval={state.approval} entry={state.entry} />}
      <InputBox text={buffer.text} width={width} label={label} active={!state.running || ask !== undefined} />
      <StatusBar state={state} />
    </Box>
  );
}

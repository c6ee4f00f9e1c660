import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { addNotice, answered, automaticDecision, collapseBlock } from '../chat-actions.js';
import { reduceEvent } from '../chat-events.js';
import type { ChatSession } from '../chat-session.js';
import { initialChatState, type ChatState } from '../chat-state.js';

/** How long a finished tool block stays expanded before it collapses by itself. */
export const AUTO_COLLAPSE_MS = 3000;

/**
 * The chat's state, fed by `session`: the earlier events of a resumed conversation, then every
 * live event. Permission requests the approval mode answers by itself are answered here, and
 * finished tool blocks collapse after {@link AUTO_COLLAPSE_MS} unless the user toggled them.
 */
export function useChatSession(session: ChatSession): [ChatState, (change: (state: ChatState) => ChatState) => void] {
  const [state, setState] = useState<ChatState>(() => {
    let start = initialChatState({
      entry: session.entry,
      model: session.model,
      ...(session.contextWindow === undefined ? {} : { contextWindow: session.contextWindow }),
    });
    for (const event of session.earlier) start = reduceEvent(start, event);
    // A resumed conversation is idle until the user writes (its replayed events may end mid-run).
    start = {
      ...start,
      running: false,
      asks: [],
      agentState: 'idle',
      mode: 'execute',
      blocks: start.blocks.map((b) => (b.kind === 'tool' ? { ...b, expanded: false } : b)),
    };
    if (session.note !== undefined) start = addNotice(start, session.note, 'warn');
    if (session.runId !== undefined) start = addNotice(start, `run ${session.runId} · /help lists the keys and commands`);
    return start;
  });

  useEffect(() => {
    const subscription = session.events$.subscribe((event) => setState((current) => reduceEvent(current, event)));
    return () => subscription.unsubscribe();
  }, [session]);

  // Permission requests the approval mode or the session's trust answers without asking.
  useEffect(() => {
    for (const ask of state.asks) {
      if (ask.kind !== 'permission' || automaticDecision(state, ask.toolName) === 'ask') continue;
      setState((current) => answered(current, ask));
      session.approve(ask.callId, 'allow_once', ask.path).catch((error: unknown) => setState((current) => addNotice(current, String(error), 'error')));
    }
  }, [state, session]);

  // Finished tool blocks collapse after a while; each block is scheduled once.
  const scheduled = useRef(new Set<number>());
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());
  // A layout effect: the timer is set before the frame that shows the finished block is drawn.
  useLayoutEffect(() => {
    for (const block of state.blocks) {
      if (block.kind !== 'tool' || block.status === 'running' || block.status === 'waiting' || !block.expanded || scheduled.current.has(block.id)) continue;
      scheduled.current.add(block.id);
      const timer = setTimeout(() => {
        timers.current.delete(timer);
        setState((current) => collapseBlock(current, block.id));
      }, AUTO_COLLAPSE_MS);
      timers.current.add(timer);
    }
  }, [state.blocks]);
  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending) clearTimeout(timer);
    };
  }, []);

  return [state, setState];
}

/**
 * Follows a run's event stream: every event is folded into a RunModel as it arrives, and the page
 * is drawn again at most every THROTTLE_MS (a run streaming thousands of events stays responsive).
 * EventSource reconnects by itself after a drop and sends the last `id:` it got as
 * `Last-Event-ID`, so the server resumes right after it: nothing lost, nothing twice.
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { runPath } from './api.js';
import { RunModel } from './run-model.js';
import type { FeedEvent } from './types.js';

/** How often the tree, counters and timeline are drawn again at most. */
export const THROTTLE_MS = 250;

/** The run's folded events, the version last drawn, and whether the stream is connected. */
export function useRunFeed(runId: string): { model: RunModel; version: number; connected: boolean } {
  const model = useMemo(() => new RunModel(), [runId]);
  const [version, setVersion] = useState(0);
  const [connected, setConnected] = useState(false);
  useEffect(() => {
    const source = new EventSource(`${runPath(runId)}/events`);
    source.addEventListener('agent', (message) => model.apply(JSON.parse((message as MessageEvent<string>).data) as FeedEvent));
    source.onopen = () => setConnected(true);
    source.onerror = () => setConnected(false);
    let drawn = -1;
    const timer = setInterval(() => {
      if (model.version === drawn) return;
      drawn = model.version;
      setVersion(drawn);
    }, THROTTLE_MS);
    return () => {
      clearInterval(timer);
      source.close();
    };
  }, [model, runId]);
  return { model, version, connected };
}

/** Calls `load` now and every `ms` while mounted (and when `deps` change); returns its latest value or error. */
export function usePoll<T>(load: () => Promise<T>, ms: number, deps: unknown[]): { value: T | undefined; error: unknown; reload: () => void } {
  const [value, setValue] = useState<T | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [nudge, setNudge] = useState(0);
  useEffect(() => {
    let live = true;
    const tick = (): void =>
      void load().then(
        (next) => {
          if (!live) return;
          setValue(next);
          setError(undefined);
        },
        (failure: unknown) => live && setError(failure),
      );
    tick();
    const timer = setInterval(tick, ms);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [...deps, nudge]);
  return { value, error, reload: () => setNudge((n) => n + 1) };
}

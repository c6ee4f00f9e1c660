import { addUsage, emptyUsage, type AgentEvent, type AgentPath, type AgentResult } from '@troupe/core';
import type { Logger, RunRecord, RunResult } from '@troupe/runtime';
import type { CliIo } from '../cli-io.js';
import { ExitCode, exitCodeOf } from '../exit-code.js';
import { runView, waitingLines } from '../view/run-view.js';
import { isFinal, type RunControl } from './run-control.js';
import type { NatsSession } from './nats-session.js';

/** How {@link followRun} shows a run and when it stops. */
export interface FollowOptions {
  json?: boolean;
  logger: Logger;
  /** Stop with exit 3 once an actor waits for a user, instead of following the run while it waits. */
  untilWaiting?: boolean;
  /**
   * An actor whose wait was just answered: its record counts as waiting again only once written
   * after `revision` (the answer may not have reached it yet).
   */
  answered?: { path: AgentPath; revision: number };
  /** Called once the events are subscribed: sends an answer. */
  start?: () => Promise<void>;
  /** How often the run's record is read (its end, for pipelines; waits). Default 1000 ms. */
  pollMs?: number;
}

type Outcome = { kind: 'ended'; result: RunResult } | { kind: 'waiting' } | { kind: 'interrupted' } | { kind: 'failed'; error: unknown };

/**
 * Follows a run that lives on NATS, from this process, which hosts none of it: replays its events
 * from the start and follows them live, shown as `troupe run` shows them (see `runView`), until the
 * run ends — its entry's `agent_end`, or the run record's final status (pipelines, whose entry is
 * no actor). Exit code: 0 when it ended well, 1 when it failed or was aborted, 3 when it waits and
 * `untilWaiting` was asked (the waiting actors are listed, with the commands that answer them),
 * 130 on `io.signal` (only the watching stops; the run goes on).
 */
export async function followRun(session: NatsSession, control: RunControl, options: FollowOptions, io: CliIo): Promise<ExitCode> {
  const { run, transport, store } = control;
  const { followRunEvents, waitingOf } = session.nats;
  const view = runView({ entry: run.entry, logger: options.logger, ...(options.json === true ? { json: true } : {}) }, io);
  let usage = emptyUsage();
  let settle: (outcome: Outcome) => void = () => undefined;
  const outcome = new Promise<Outcome>((resolve) => (settle = resolve));
  const ended = (result: RunResult): void => settle({ kind: 'ended', result });

  const subscription = followRunEvents(session.resources, run.id).subscribe({
    next: (event: AgentEvent) => {
      view.onEvent(event);
      if (event.type === 'usage') usage = addUsage(usage, event.usage);
      if (event.type === 'agent_end' && event.agentPath === run.entry) ended(resultOf(run, event.result, usage));
    },
    error: (error: unknown) => settle({ kind: 'failed', error }),
  });
  const interrupt = (): void => settle({ kind: 'interrupted' });
  io.signal.addEventListener('abort', interrupt, { once: true });
  let finalPolls = 0;
  const poll = async (): Promise<void> => {
    const now = await store.getRun(run.id);
    // An entry agent's end comes with its agent_end event. The record alone ends a pipeline (its
    // entry is no actor) or a run whose events are gone, one poll later: its last events have had
    // their chance to arrive (the record is written before they are flushed).
    if (now !== undefined && isFinal(now) && ++finalPolls > 1) {
      ended(recordResult(now, usage));
      return;
    }
    if (options.untilWaiting !== true) return;
    const answered = options.answered;
    const records = (await transport.records.list(run.id)).filter((r) => answered === undefined || r.path !== answered.path || r.revision > answered.revision);
    if (waitingOf(records).length > 0) settle({ kind: 'waiting' });
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const loop = (): void => {
    timer = setTimeout(() => void poll().then(loop, (error: unknown) => settle({ kind: 'failed', error })), options.pollMs ?? 1000);
  };
  try {
    await options.start?.();
    loop();
    const end = await outcome;
    if (end.kind !== 'ended') view.close();
    switch (end.kind) {
      case 'interrupted':
        io.stderr(`troupe: stopped following run ${run.id}; it goes on (troupe abort ${run.id} ${session.target.flags} cancels it)\n`);
        return ExitCode.Interrupted;
      case 'failed':
        io.stderr(`troupe: lost run ${run.id}: ${end.error instanceof Error ? end.error.message : String(end.error)}\n`);
        return ExitCode.RunFailed;
      case 'waiting': {
        const waiting = waitingOf(await transport.records.list(run.id));
        io.stderr(`troupe: run ${run.id} is waiting:\n${waitingLines(run.id, waiting, ` ${session.target.flags}`)}`);
        return ExitCode.Waiting;
      }
      case 'ended': {
        const final = await store.getRun(run.id);
        view.end(end.result, (final?.endedAt ?? Date.now()) - run.startedAt);
        return end.result.status === 'aborted' ? ExitCode.RunFailed : exitCodeOf(end.result.stopReason);
      }
    }
  } finally {
    view.close();
    clearTimeout(timer);
    io.signal.removeEventListener('abort', interrupt);
    subscription.unsubscribe();
  }
}

function resultOf(run: RunRecord, agent: AgentResult, usage: RunResult['usage']): RunResult {
  const status: RunResult['status'] = agent.stopReason === 'error' ? 'failed' : agent.stopReason === 'aborted' ? 'aborted' : 'done';
  const result: RunResult = { runId: run.id, status, stopReason: agent.stopReason, text: agent.text, usage, agent };
  if (agent.error !== undefined) result.error = agent.error;
  return result;
}

function recordResult(run: RunRecord, usage: RunResult['usage']): RunResult {
  const status = run.status === 'failed' || run.status === 'aborted' ? run.status : 'done';
  const result: RunResult = {
    runId: run.id,
    status,
    stopReason: run.stopReason ?? (status === 'done' ? 'stop' : status === 'aborted' ? 'aborted' : 'error'),
    text: '',
    usage: run.usage ?? usage,
  };
  if (run.error !== undefined) result.error = run.error;
  return result;
}

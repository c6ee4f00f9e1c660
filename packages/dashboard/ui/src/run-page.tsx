/**
 * One run, live: its record and totals, what waits for a person, the actor tree with each actor's
 * state and counters, the selected actor's statechart and conversation, and the event timeline.
 */
import { useState } from 'preact/hooks';
import { get, runPath } from './api.js';
import { AbortRun, ActorActions, WaitingPanel } from './actions-panel.js';
import { ErrorBanner } from './error-banner.js';
import { Conversation } from './conversation.js';
import { formatDuration } from './format.js';
import type { ActorView, TimelineRow } from './run-model.js';
import { Statechart } from './statechart.js';
import type { RunDetail } from './types.js';
import { usePoll, useRunFeed } from './use-run-feed.js';
import { VirtualList } from './virtual-list.js';

const ENDED = new Set(['done', 'failed', 'aborted']);

export function RunPage({ runId }: { runId: string }) {
  const { model, version, connected } = useRunFeed(runId);
  const detail = usePoll(() => get<RunDetail>(runPath(runId)), 1000, [runId]);
  const [selected, setSelected] = useState<string | undefined>(undefined);
  const [filter, setFilter] = useState('all');
  const run = detail.value?.run;
  if (run === undefined)
    return (
      <section>
        <ErrorBanner error={detail.error} />
        {detail.error === undefined && <p>Loading {runId}…</p>}
      </section>
    );
  const ended = ENDED.has(run.status);
  const actors = model.tree();
  const current = actors.find((a) => a.path === (selected ?? run.entry)) ?? actors[0];
  const rows = filter === 'all' ? model.rows : model.rows.filter((row) => row.path === filter);
  const tokens = actors.reduce((sum, a) => sum + a.tokens, 0);
  const cost = actors.reduce((sum, a) => sum + a.cost, 0);
  return (
    <section class="run" data-version={version}>
      <div class="run-head">
        <h2>
          {run.id}{' '}
          <span class={`pill ${run.status}`} data-testid="run-status">
            {run.status}
          </span>
        </h2>
        <div class="facts">
          entry <strong>{run.entry}</strong> · {actors.length} actors · tokens {tokens} · ${cost.toFixed(4)} ·{' '}
          {formatDuration((run.endedAt ?? Date.now()) - run.startedAt)}
          {detail.value?.host !== undefined && <> · runs in {detail.value.host}</>} ·{' '}
          <span class={connected ? 'live' : 'offline'}>{connected ? 'live' : 'reconnecting'}</span>
        </div>
        <div class="input">input: {run.input}</div>
        {run.error !== undefined && (
          <div class="banner error">
            <strong>{run.error.code}</strong> {run.error.message}
          </div>
        )}
        <AbortRun runId={run.id} ended={ended} done={detail.reload} />
      </div>
      <ErrorBanner error={detail.error} />
      {detail.value !== undefined && <WaitingPanel detail={detail.value} done={detail.reload} />}
      <div class="columns">
        <div class="col tree-col">
          <h3>Actors</h3>
          <ActorTree actors={actors} selected={current?.path} placements={detail.value?.placements ?? {}} onSelect={setSelected} />
          {current !== undefined && (
            <div class="actor-detail">
              <h3>{current.path}</h3>
              <Statechart state={current.state} label={current.path} />
              <ActorActions runId={run.id} path={current.path} entry={run.entry} ended={ended || ENDED.has(current.state)} done={detail.reload} />
            </div>
          )}
        </div>
        <div class="col timeline-col">
          <div class="toolbar">
            <h3>Events</h3>
            <select aria-label="filter events by actor" value={filter} onChange={(e) => setFilter(e.currentTarget.value)}>
              <option value="all">all actors</option>
              {actors.map((a) => (
                <option key={a.path} value={a.path}>
                  {a.path}
                </option>
              ))}
            </select>
            <span class="count">{rows.length} rows</span>
          </div>
          <VirtualList items={rows} rowHeight={24} version={version} class="timeline" render={(row: TimelineRow) => <EventRow row={row} />} />
        </div>
        <div class="col convo-col">
          <h3>Conversation{current === undefined ? '' : ` of ${current.path}`}</h3>
          {current !== undefined && <Conversation runId={run.id} path={current.path} version={version} />}
        </div>
      </div>
    </section>
  );
}

function ActorTree({
  actors,
  selected,
  placements,
  onSelect,
}: {
  actors: ActorView[];
  selected: string | undefined;
  placements: Record<string, string>;
  onSelect: (path: string) => void;
}) {
  return (
    <ul class="tree" aria-label="actor tree">
      {actors.map((actor) => (
        <li
          key={actor.path}
          class={actor.path === selected ? 'sel' : ''}
          data-path={actor.path}
          data-state={actor.state}
          style={{ paddingLeft: `${actor.depth * 16 + 4}px` }}
        >
          <button type="button" class="link" onClick={() => onSelect(actor.path)}>
            {actor.path}
          </button>
          <span class={`pill ${actor.state}`}>{actor.state}</span>
          <span class="num">
            {actor.turns} turn{actor.turns === 1 ? '' : 's'} · {actor.tokens} tok · ${actor.cost.toFixed(4)}
          </span>
          {placements[actor.path] !== undefined && <span class="where-run">{placements[actor.path]}</span>}
        </li>
      ))}
    </ul>
  );
}

function EventRow({ row }: { row: TimelineRow }) {
  return (
    <div class={`event ${row.tone}`} title={row.text} data-type={row.type}>
      <span class="seq">{row.seq}</span>
      <span class="path">{row.path}</span>
      <span class="type">{row.type}</span>
      <span class="text">{row.text}</span>
    </div>
  );
}

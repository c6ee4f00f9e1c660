/** The runs of the store, newest first, live: status, entry, times, turns, tokens, cost; filter by status; start one with the graph. */
import { useState } from 'preact/hooks';
import { get, post } from './api.js';
import { ErrorBanner } from './error-banner.js';
import { formatCost, formatDuration, formatTime } from './format.js';
import type { Info, RunRecord } from './types.js';
import { usePoll } from './use-run-feed.js';

const STATUSES = ['all', 'running', 'waiting', 'interrupted', 'done', 'failed', 'aborted'] as const;

export function RunsPage({ info }: { info: Info | undefined }) {
  const [status, setStatus] = useState<(typeof STATUSES)[number]>('all');
  const runs = usePoll(() => get<{ runs: RunRecord[] }>('/api/runs'), 1500, []);
  const shown = (runs.value?.runs ?? []).filter((run) => status === 'all' || run.status === status).reverse();
  return (
    <section class="runs">
      {info?.graph != null && <StartForm entry={info.graph.entry} />}
      <div class="toolbar">
        <h2>Runs</h2>
        <label>
          status{' '}
          <select value={status} onChange={(e) => setStatus(e.currentTarget.value as (typeof STATUSES)[number])} aria-label="filter by status">
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
      </div>
      <ErrorBanner error={runs.error} />
      <table class="grid">
        <thead>
          <tr>
            <th>run</th>
            <th>status</th>
            <th>entry</th>
            <th>started</th>
            <th>duration</th>
            <th>turns</th>
            <th>tokens</th>
            <th>cost</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((run) => (
            <tr key={run.id} class={`status-${run.status}`} data-run={run.id}>
              <td>
                <a href={`#/run/${encodeURIComponent(run.id)}`}>{run.id}</a>
              </td>
              <td>
                <span class={`pill ${run.status}`}>{run.status}</span>
                {run.status === 'waiting' && <span class="needs-you"> waits for you</span>}
              </td>
              <td>{run.entry}</td>
              <td>{formatTime(run.startedAt)}</td>
              <td>{run.endedAt === undefined ? '…' : formatDuration(run.endedAt - run.startedAt)}</td>
              <td class="turns">{run.turns ?? '–'}</td>
              <td>{run.usage?.totalTokens ?? 0}</td>
              <td>{formatCost(run.usage)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {shown.length === 0 && runs.value !== undefined && <p class="empty">No runs{status === 'all' ? '' : ` with status ${status}`} yet.</p>}
    </section>
  );
}

function StartForm({ entry }: { entry: string }) {
  const [input, setInput] = useState('');
  const [error, setError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);
  const start = async (event: Event): Promise<void> => {
    event.preventDefault();
    setBusy(true);
    try {
      const { runId } = await post<{ runId: string }>('/api/runs', { input });
      location.hash = `#/run/${encodeURIComponent(runId)}`;
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="start" onSubmit={(e) => void start(e)}>
      <label for="start-input">
        Start a run of <strong>{entry}</strong>
      </label>
      <input id="start-input" name="input" value={input} placeholder="the input" onInput={(e) => setInput(e.currentTarget.value)} />
      <button type="submit" disabled={busy || input.trim() === ''}>
        Start
      </button>
      <ErrorBanner error={error} />
    </form>
  );
}

/** The namespace's live workers (`--nats`): id, agents, graph and load. */
import { get } from './api.js';
import { ErrorBanner } from './error-banner.js';
import { short } from './format.js';
import type { WorkerView } from './types.js';
import { usePoll } from './use-run-feed.js';

export function WorkersPage() {
  const workers = usePoll(() => get<{ workers: WorkerView[] }>('/api/workers'), 2000, []);
  const list = workers.value?.workers ?? [];
  return (
    <section class="workers">
      <h2>Workers</h2>
      <ErrorBanner error={workers.error} />
      <table class="grid">
        <thead>
          <tr>
            <th>worker</th>
            <th>agents</th>
            <th>graph</th>
            <th>load</th>
          </tr>
        </thead>
        <tbody>
          {list.map((w) => (
            <tr key={w.id} data-worker={w.id}>
              <td>{w.id}</td>
              <td>{w.agents.join(', ')}</td>
              <td>{w.graph.slice(0, 12)}</td>
              <td>{w.load === undefined ? '-' : short(w.load, 200)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {list.length === 0 && workers.value !== undefined && <p class="empty">No live workers in this namespace.</p>}
    </section>
  );
}

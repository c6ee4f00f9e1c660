/** The page: a header with the views, and the view the address's hash names (`#/runs`, `#/run/<id>`, `#/graph`, `#/workers`). */
import { useEffect, useState } from 'preact/hooks';
import { get } from './api.js';
import { ErrorBanner } from './error-banner.js';
import { GraphPage } from './graph-page.js';
import { RunPage } from './run-page.js';
import { RunsPage } from './runs-page.js';
import type { Info } from './types.js';
import { usePoll } from './use-run-feed.js';
import { WorkersPage } from './workers-page.js';

function useHash(): string {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const on = (): void => setHash(location.hash);
    addEventListener('hashchange', on);
    // The hash may have changed between the first render and this effect (effects run after paint):
    // that hashchange had no listener yet, so read it again.
    on();
    return () => removeEventListener('hashchange', on);
  }, []);
  return hash;
}

export function App() {
  const hash = useHash();
  const info = usePoll(() => get<Info>('/api/info'), 60_000, []);
  const runMatch = /^#\/run\/(.+)$/.exec(hash);
  const view = runMatch !== null ? 'run' : hash === '#/graph' ? 'graph' : hash === '#/workers' ? 'workers' : 'runs';
  return (
    <div class="shell">
      <header>
        <a class="brand" href="#/runs">
          Troupe
        </a>
        <nav>
          <a href="#/runs" class={view === 'runs' ? 'on' : ''}>
            Runs
          </a>
          {info.value?.graph !== null && info.value !== undefined && (
            <a href="#/graph" class={view === 'graph' ? 'on' : ''}>
              Graph
            </a>
          )}
          {info.value?.kind === 'nats' && (
            <a href="#/workers" class={view === 'workers' ? 'on' : ''}>
              Workers
            </a>
          )}
        </nav>
        <span class="where">{info.value?.where}</span>
      </header>
      <ErrorBanner error={info.error} />
      <main>
        {view === 'run' && runMatch !== null && <RunPage runId={decodeURIComponent(runMatch[1] ?? '')} />}
        {view === 'runs' && <RunsPage info={info.value} />}
        {view === 'graph' && info.value?.graph != null && <GraphPage graph={info.value.graph} />}
        {view === 'workers' && <WorkersPage />}
      </main>
    </div>
  );
}

/**
 * A distributed run in the browser (a real nats-server, a `troupe worker` child process, Debian's
 * Chromium): a run started
 * from the page puts its remote child on the worker, the tree shows the child running on that
 * worker, the Workers view lists it, and the run is aborted from the page on every machine.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { createLogger } from '@troupe/runtime';
import { connectNats, openNatsResources, type NatsResources } from '@troupe/nats';
import { startNatsServer, type NatsServerProcess } from '@troupe/nats/testing';
import { createNatsRunSource, startDashboard, type Dashboard } from '../../src/index.js';
import { hasChromium, launchChromium, screenshot, startFromPage } from '../support/browser.js';
import { startTroupeWorker, type TroupeWorker } from '../support/troupe-process.js';

const SLOW_REMOTE_YAML = fileURLToPath(new URL('../fixtures/slow-remote.yaml', import.meta.url));
const WAIT = { timeout: 45_000 };
const logger = createLogger({ level: 'silent' });

describe.runIf(hasChromium)('a distributed run in Chromium', () => {
  let browser: Browser;
  let server: NatsServerProcess;
  let worker: TroupeWorker | undefined;
  let dashboard: Dashboard;
  const namespace = `ui${process.pid}`;
  const opened: NatsResources[] = [];
  const resources = async (): Promise<NatsResources> => {
    const r = await openNatsResources(await connectNats({ servers: server.url }), { namespace });
    opened.push(r);
    return r;
  };

  beforeAll(async () => {
    server = await startNatsServer();
    dashboard = await startDashboard({
      source: createNatsRunSource({ resources: await resources(), namespace, display: server.url, graphFile: SLOW_REMOTE_YAML, logger }),
      port: 0,
      logger,
    });
    browser = await launchChromium();
  });
  beforeEach(async () => {
    worker = await startTroupeWorker({ graph: SLOW_REMOTE_YAML, nats: server.url, namespace, id: `w-ui${process.pid}` });
  });
  afterEach(async () => {
    await worker?.stop();
    worker = undefined;
  });
  afterAll(async () => {
    await browser?.close();
    await dashboard?.close();
    for (const r of opened) await r.nc.close().catch(() => undefined);
    await server?.stop();
  });

  it('shows the remote child on its worker, lists the worker, and aborts the run from the page', async () => {
    const workerId = worker?.id;
    if (workerId === undefined) throw new Error('the worker did not start');
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    try {
      await page.goto(dashboard.url);
      await startFromPage(page, 'Take your time.');
      const child = page.locator('li[data-path="lead/sleeper#1"]');
      await child.locator('.where-run', { hasText: `running on ${workerId}` }).waitFor(WAIT);
      expect(await child.getAttribute('data-state')).toBe('thinking');
      await screenshot(page, 'distributed-run');

      await page.getByRole('button', { name: 'Abort run' }).click();
      await page.getByTestId('run-status').filter({ hasText: 'aborted' }).waitFor(WAIT);
      await page.locator('li[data-path="lead/sleeper#1"][data-state="aborted"]').waitFor(WAIT);

      await page.getByRole('link', { name: 'Workers' }).click();
      await page.locator(`tr[data-worker="${workerId}"]`).waitFor(WAIT);
      await screenshot(page, 'workers');
    } finally {
      await page.close();
    }
  });
});

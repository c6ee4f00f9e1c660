/**
 * A distributed run in the browser (a real nats-server, a worker, Debian's Chromium): a run started
 * from the page puts its remote child on the worker, the tree shows the child running on that
 * worker, the Workers view lists it, and the run is aborted from the page on every machine.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { createLogger, loadGraphFile } from '@troupe/runtime';
import { connectNats, openNatsResources, startWorker, type NatsResources, type Worker } from '@troupe/nats';
import { startNatsServer, type NatsServerProcess } from '@troupe/nats/testing';
import { createNatsRunSource, startDashboard, type Dashboard } from '../../src/index.js';
import { hasChromium, launchChromium, screenshot, startFromPage } from '../support/browser.js';

const SLOW_REMOTE_YAML = fileURLToPath(new URL('../fixtures/slow-remote.yaml', import.meta.url));
const WAIT = { timeout: 45_000 };
const logger = createLogger({ level: 'silent' });

describe.runIf(hasChromium)('a distributed run in Chromium', () => {
  let browser: Browser;
  let server: NatsServerProcess;
  let worker: Worker;
  let dashboard: Dashboard;
  const opened: NatsResources[] = [];
  const resources = async (): Promise<NatsResources> => {
    const r = await openNatsResources(await connectNats({ servers: server.url }), { namespace: `ui${process.pid}` });
    opened.push(r);
    return r;
  };

  beforeAll(async () => {
    server = await startNatsServer();
    worker = await startWorker({ resources: await resources(), graph: await loadGraphFile(SLOW_REMOTE_YAML), ackWaitMs: 5000 });
    dashboard = await startDashboard({
      source: createNatsRunSource({ resources: await resources(), namespace: `ui${process.pid}`, display: server.url, graphFile: SLOW_REMOTE_YAML, logger }),
      port: 0,
      logger,
    });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await dashboard?.close();
    await worker?.stop(1000);
    for (const r of opened) await r.nc.close().catch(() => undefined);
    await server?.stop();
  });

  it('shows the remote child on its worker, lists the worker, and aborts the run from the page', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    try {
      await page.goto(dashboard.url);
      await startFromPage(page, 'Take your time.');
      const child = page.locator('li[data-path="lead/sleeper#1"]');
      await child.locator('.where-run', { hasText: `running on ${worker.id}` }).waitFor(WAIT);
      expect(await child.getAttribute('data-state')).toBe('thinking');
      await screenshot(page, 'distributed-run');

      await page.getByRole('button', { name: 'Abort run' }).click();
      await page.getByTestId('run-status').filter({ hasText: 'aborted' }).waitFor(WAIT);
      await page.locator('li[data-path="lead/sleeper#1"][data-state="aborted"]').waitFor(WAIT);

      await page.getByRole('link', { name: 'Workers' }).click();
      await page.locator(`tr[data-worker="${worker.id}"]`).waitFor(WAIT);
      await screenshot(page, 'workers');
    } finally {
      await page.close();
    }
  });
});

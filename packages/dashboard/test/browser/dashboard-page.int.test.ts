/**
 * The dashboard in a real browser (Debian's Chromium, headless): a run of team.yaml started from
 * the page grows its tree to three actors and reaches done with each statechart lit, and the runs
 * list shows its turns; a pending MCP
 * call of mcp-approval.yaml is approved from the page and the run ends, and a second page that
 * still shows it gets the stale-request error; a long run is aborted from the page; an unknown run
 * and a missing token are said on the page, also when the address changed before the page's effects
 * ran. Screenshots land in test-artifacts/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { hasChromium, launchChromium, openDashboard, screenshot, startFromPage } from '../support/browser.js';
import { MCP_APPROVAL_YAML, TEAM_YAML } from '../support/examples.js';

const SLOW_TEAM_YAML = fileURLToPath(new URL('../fixtures/slow-team.yaml', import.meta.url));
/** Generous: the machine is loaded; this only catches hangs. */
const WAIT = { timeout: 45_000 };

describe.runIf(hasChromium)('the dashboard in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('starts team.yaml from the page: the tree grows to three actors and the run reaches done', async () => {
    const { dashboard, close } = await openDashboard(TEAM_YAML);
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    try {
      await page.goto(dashboard.url);
      await startFromPage(page, 'Should we adopt TypeScript 7?');
      await page.getByTestId('run-status').filter({ hasText: 'done' }).waitFor(WAIT);
      const tree = page.getByRole('list', { name: 'actor tree' }).locator('li');
      await expect.poll(() => tree.count(), WAIT).toBe(3);
      expect(await tree.evaluateAll((items) => items.map((li) => [li.getAttribute('data-path'), li.getAttribute('data-state')]))).toEqual([
        ['lead', 'done'],
        ['lead/researcher#1', 'done'],
        ['lead/critic#1', 'done'],
      ]);
      // The entry's statechart has `done` lit, and only it.
      expect(await page.locator('svg.chart g[data-lit="true"]').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-state')))).toEqual(['done']);
      await page.getByText('Recommendation: adopt it behind a flag', { exact: false }).first().waitFor(WAIT);
      await screenshot(page, 'team-run');
      // The runs page lists it, with its turns: the lead's two and one of each specialist.
      await page.goto(`${dashboard.origin}/#/runs`);
      await page.locator('tr.status-done').first().waitFor(WAIT);
      await page.locator('tr.status-done td.turns').filter({ hasText: /^4$/ }).waitFor(WAIT);
      await screenshot(page, 'runs-list');
    } finally {
      await page.close();
      await close();
    }
  });

  it('approves the pending MCP call of mcp-approval.yaml from the page; a page still showing it gets a stale error', async () => {
    const { dashboard, close } = await openDashboard(MCP_APPROVAL_YAML);
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    const other = await context.newPage();
    try {
      await page.goto(dashboard.url);
      const runId = await startFromPage(page, 'Say hello through MCP');
      await page.getByRole('button', { name: 'Allow once' }).waitFor(WAIT);
      await page.getByTestId('run-status').filter({ hasText: 'waiting' }).waitFor(WAIT);
      await screenshot(page, 'approval-pending');

      // A second page shows the same pending call; its view of the run is kept as it was then.
      await other.goto(`${dashboard.origin}/#/run/${encodeURIComponent(runId)}`);
      await other.getByRole('button', { name: 'Deny and stop' }).waitFor(WAIT);
      const frozen = await (await other.request.get(`${dashboard.origin}/api/runs/${encodeURIComponent(runId)}`)).text();
      await other.route(`${dashboard.origin}/api/runs/${encodeURIComponent(runId)}`, (route) =>
        route.fulfill({ body: frozen, contentType: 'application/json' }),
      );

      await page.getByRole('button', { name: 'Allow once' }).click();
      await page.getByTestId('run-status').filter({ hasText: 'done' }).waitFor(WAIT);
      await page.getByText('The MCP server answered', { exact: false }).first().waitFor(WAIT);
      await screenshot(page, 'approval-done');

      await other.getByRole('button', { name: 'Deny and stop' }).click();
      const banner = other.getByRole('alert');
      await banner.waitFor(WAIT);
      expect(['stale_request', 'run_ended']).toContain(await banner.getAttribute('data-code'));
      await screenshot(other, 'approval-stale');
    } finally {
      await context.close();
      await close();
    }
  });

  it('aborts a long run from the page', async () => {
    const { dashboard, close } = await openDashboard(SLOW_TEAM_YAML);
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    try {
      await page.goto(dashboard.url);
      await startFromPage(page, 'Take your time.');
      await page.locator('li[data-path="lead/sleeper#1"][data-state="thinking"]').waitFor(WAIT);
      await page.getByRole('button', { name: 'Abort run' }).click();
      await page.getByTestId('run-status').filter({ hasText: 'aborted' }).waitFor(WAIT);
      await page.locator('li[data-path="lead/sleeper#1"][data-state="aborted"]').waitFor(WAIT);
      await screenshot(page, 'aborted-run');
    } finally {
      await page.close();
      await close();
    }
  });

  it('says an unknown run and a missing token on the page', async () => {
    const { dashboard, close } = await openDashboard(TEAM_YAML);
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      // No ?token=: the page loads, every API call is refused, and the page says why.
      await page.goto(`${dashboard.origin}/#/runs`);
      await page.locator('[role="alert"][data-code="unauthorized"]').first().waitFor(WAIT);
      await page.goto(dashboard.url);
      await page.goto(`${dashboard.origin}/#/run/run_nope`);
      await page.locator('[role="alert"][data-code="unknown_run"]').first().waitFor(WAIT);
      await screenshot(page, 'unknown-run');
    } finally {
      await context.close();
      await close();
    }
  });

  it('follows an address change made before the page finished setting up (a loaded machine)', async () => {
    const { dashboard, close } = await openDashboard(TEAM_YAML);
    const page = await browser.newPage();
    // Preact runs effects after the next frame, or after 100 ms: hold both back, as a starved CPU does.
    await page.addInitScript(() => {
      type Timers = { requestAnimationFrame(run: () => void): number; setTimeout(run: () => void, ms?: number): number };
      const scope = globalThis as unknown as Timers;
      const setTimer = scope.setTimeout;
      scope.requestAnimationFrame = () => 0;
      scope.setTimeout = (run, ms) => setTimer(run, ms === 100 ? 1500 : ms);
    });
    try {
      await page.goto(dashboard.url);
      await page.goto(`${dashboard.origin}/#/run/run_nope`);
      await page.locator('[role="alert"][data-code="unknown_run"]').first().waitFor(WAIT);
    } finally {
      await page.close();
      await close();
    }
  });
});

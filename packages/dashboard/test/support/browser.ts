/**
 * Test helpers for the browser tests: Debian's Chromium driven by playwright-core (never a
 * downloaded browser), headless, and a dashboard over a fresh runs folder for each test.
 * Screenshots go to the package's test-artifacts/ folder (not committed).
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createLogger } from '@troupe/runtime';
import { createFileRunSource, startDashboard, type Dashboard } from '../../src/index.js';

/** Where Debian's chromium package puts the browser (`.ci/run` installs it). */
export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);

/** Where screenshots go. */
export const ARTIFACTS = fileURLToPath(new URL('../../test-artifacts/', import.meta.url));

/** Launches headless Chromium with the options that work on this kind of machine (TOOLCHAIN.md §9). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** A dashboard over a temporary runs folder, and what removes both. */
export async function openDashboard(graphFile: string): Promise<{ dashboard: Dashboard; close(): Promise<void> }> {
  const runsDir = await mkdtemp(join(tmpdir(), 'troupe-dashboard-ui-'));
  const logger = createLogger({ level: 'silent' });
  const dashboard = await startDashboard({ source: createFileRunSource({ runsDir, logger, graphFile }), port: 0, logger });
  return {
    dashboard,
    close: async () => {
      await dashboard.close();
      await rm(runsDir, { recursive: true, force: true });
    },
  };
}

/** Saves a screenshot of `page` as test-artifacts/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/** Starts a run from the runs page with `input`, and resolves once the run's page shows. */
export async function startFromPage(page: Page, input: string): Promise<string> {
  await page.locator('#start-input').fill(input);
  await page.getByRole('button', { name: 'Start' }).click();
  await page.waitForURL(/#\/run\//);
  await page.getByTestId('run-status').waitFor();
  return decodeURIComponent(new URL(page.url()).hash.replace('#/run/', ''));
}

// One checkpoint through the preview page in a fresh Chromium profile on disk (a user's browser:
// its storage on disk): time from "Run forward pass" to the output, peak memory of all Chromium
// processes, their CPU time; then, with `warm`, the same after a reload (weights in the cache).
import { chromium, type Page } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromiumArgs } from '../playwright.config.ts';
import type { Timings } from '../src/model/pipeline/run-types.ts';
import { sampleBrowser } from './browser-processes.ts';

export interface PreviewRun {
  /** seconds from the Run click to the output */
  firstOutputS: number;
  peakPss: number;
  cpuSeconds: number;
  timings: Timings;
  notice: string | null;
}

export async function signInTo(page: Page, token: string, path: string): Promise<void> {
  await page.goto(`/sign-in?next=${encodeURIComponent(path)}`);
  await page.getByLabel('Access token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((u) => u.pathname === path.split('?')[0]);
  await page.getByTestId('provider-reason').filter({ hasNotText: 'Checking' }).waitFor();
}

async function runOnce(page: Page, profile: string): Promise<PreviewRun> {
  await page.getByRole('button', { name: 'Inspect' }).click();
  await page.getByTestId('checkpoint-summary').waitFor();
  const sampler = await sampleBrowser(profile);
  const t0 = performance.now();
  await page.getByRole('button', { name: 'Run forward pass' }).click();
  await Promise.race([
    page.getByTestId('provider-used').waitFor({ timeout: 600_000 }),
    page.getByTestId('preview-error').waitFor({ timeout: 600_000 }),
  ]);
  const firstOutputS = (performance.now() - t0) / 1000;
  const { peakPss, cpuSeconds } = await sampler.stop();
  if (await page.getByTestId('preview-error').count())
    throw new Error(`the page reported: ${await page.getByTestId('preview-error').textContent()}`);
  const summary = JSON.parse((await page.getByTestId('output-summary').textContent()) ?? '{}') as { timings: Timings };
  const notice = (await page.getByTestId('preview-notice').count())
    ? await page.getByTestId('preview-notice').textContent()
    : null;
  return { firstOutputS, peakPss, cpuSeconds, timings: summary.timings, notice };
}

export async function measurePreview(
  baseUrl: string,
  token: string,
  repoId: string,
  opts: { warm?: boolean; weights?: string } = {},
): Promise<{ cold: PreviewRun; warm?: PreviewRun }> {
  const profile = mkdtempSync(path.join(tmpdir(), 'preview-bench-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: chromiumArgs,
    baseURL: baseUrl,
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await signInTo(
      page,
      token,
      `/preview?repo=${encodeURIComponent(repoId)}&provider=wasm${opts.weights ? `&weights=${opts.weights}` : ''}`,
    );
    const cold = await runOnce(page, profile);
    if (!opts.warm) return { cold };
    await page.reload();
    await page.getByTestId('provider-reason').filter({ hasNotText: 'Checking' }).waitFor();
    return { cold, warm: await runOnce(page, profile) };
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

// Shared helpers for the e2e specs: sign in through the real form, run axe, watch the console.
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import { TOKENS } from '../src/mock-hub/seed/users.ts';

export { TOKENS };

/** Signs in through the sign-in form, then opens `path`. */
export async function signIn(page: Page, token: string = TOKENS.aliceWrite, path = '/inbox') {
  await page.goto(`/sign-in?next=${encodeURIComponent(path)}`);
  await page.getByLabel('Access token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((u) => !u.pathname.startsWith('/sign-in'));
}

/** Fails on serious or critical axe-core violations of the current page. */
export async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    bad.map(
      (v) =>
        `${v.id}: ${v.help} (${v.nodes.length} nodes: ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(', ')})`,
    ),
  ).toEqual([]);
}

/** Collects console output so a spec can assert no token ever reaches it. */
export function captureConsole(page: Page): string[] {
  const lines: string[] = [];
  page.on('console', (m) => lines.push(m.text()));
  page.on('pageerror', (e) => lines.push(String(e)));
  return lines;
}

// Shared helpers for the e2e specs: open a page signed in, run axe, watch the console.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { TOKENS } from '../src/mock-hub/seed/users.ts';

export { TOKENS };

/** What the sign-in form stored in sessionStorage, per hub origin and token (written by e2e/auth.setup.ts). */
type StoredSessions = Record<string, Record<string, Record<string, string>>>;

const sessionsDir = () => path.join(test.info().project.outputDir, '.auth');

/** Keeps the sessionStorage each token's sign-in left on `origin`, for `signIn` to reuse. */
export function saveSessions(origin: string, sessions: Record<string, Record<string, string>>) {
  mkdirSync(sessionsDir(), { recursive: true });
  writeFileSync(path.join(sessionsDir(), `${new URL(origin).port}.json`), JSON.stringify({ origin, sessions }));
}

function storedSessions(token: string): Record<string, Record<string, string>> {
  const byOrigin: StoredSessions = {};
  for (const file of existsSync(sessionsDir()) ? readdirSync(sessionsDir()) : []) {
    const { origin, sessions } = JSON.parse(readFileSync(path.join(sessionsDir(), file), 'utf8')) as {
      origin: string;
      sessions: Record<string, Record<string, string>>;
    };
    byOrigin[origin] = sessions;
  }
  return Object.fromEntries(
    Object.entries(byOrigin).flatMap(([origin, sessions]) => (sessions[token] ? [[origin, sessions[token]]] : [])),
  );
}

let seeds = 0;

/**
 * Opens `path` signed in as `token`. The setup project signed every demo token in through the form
 * once per hub (e2e/auth.setup.ts); this page starts with the session storage that left, written
 * once before its first document runs, so later sign-outs and new tabs behave as after a real
 * sign-in. A hub the setup did not see (a spec's own server) is signed in through the form.
 */
export async function signIn(page: Page, token: string = TOKENS.aliceWrite, path = '/inbox') {
  const sessions = storedSessions(token);
  await page.addInitScript(
    ({ sessions, marker }) => {
      const session = sessions[location.origin];
      if (!session || sessionStorage.getItem(marker)) return;
      sessionStorage.setItem(marker, '1');
      for (const [k, v] of Object.entries(session)) sessionStorage.setItem(k, v);
    },
    { sessions, marker: `e2e.signed-in.${++seeds}` },
  );
  const response = await page.goto(path);
  if (!sessions[new URL(response!.url()).origin]) await signInThroughForm(page, token, path);
}

/** Signs in through the sign-in form, then opens `path`. */
export async function signInThroughForm(page: Page, token: string = TOKENS.aliceWrite, path = '/inbox') {
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

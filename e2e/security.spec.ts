// Security sweep over the built app: the Content-Security-Policy (no inline script) on every
// document, every page working under it with no violation reported, no demo token in any URL,
// console line or visible text, and hub text with HTML payloads rendered as text. The payload
// checks look for injected elements in the DOM, which does not depend on the CSP blocking them.
import { expect, test, type Page } from '@playwright/test';
import { rewriteHubJson } from './faults.ts';
import { captureConsole, signIn, TOKENS } from './support.ts';

const ALL_TOKENS = Object.values(TOKENS);
const PAGES = ['/inbox', '/settings', '/webhooks', '/storage', '/orgs/acme', '/orgs/acme/audit-log', '/preview'];
/** An element-shaped payload: if it is ever parsed as HTML, `[data-xss]` matches. */
const PAYLOAD =
  '<img src=x data-xss="1" onerror="window.__xss=1"><b data-xss="2">bold</b><script data-xss="3">window.__xss=3</script>';

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name!.toLowerCase(), values]),
  );
}

/** Records CSP violations (event and console), every URL requested or navigated to, and document CSP headers. */
async function watch(page: Page) {
  const seen = {
    violations: [] as string[],
    urls: [] as string[],
    documentCsp: [] as (string | null)[],
    console: captureConsole(page),
  };
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const w = window as unknown as { __csp?: string[] };
      (w.__csp ??= []).push(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) seen.violations.push(m.text());
  });
  page.on('request', (r) => seen.urls.push(r.url()));
  page.on('framenavigated', (f) => seen.urls.push(f.url()));
  page.on('response', (r) => {
    if (r.request().resourceType() === 'document')
      seen.documentCsp.push(r.headers()['content-security-policy'] ?? null);
  });
  return seen;
}

async function violationsIn(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? []);
}

test.describe('security', () => {
  test('the built app sends a CSP without inline script, and its HTML has no inline script to need one', async ({
    request,
  }) => {
    for (const path of ['/', '/inbox', '/sign-in', '/orgs/acme/audit-log']) {
      const res = await request.get(path);
      expect(res.status()).toBe(200);
      const csp = res.headers()['content-security-policy'];
      expect(csp, path).toBeTruthy();
      const d = directives(csp!);
      const script = d.get('script-src') ?? d.get('default-src')!;
      expect(script, path).toBeDefined();
      expect(script, path).not.toContain("'unsafe-inline'");
      expect(script, path).not.toContain("'unsafe-eval'");
      expect(
        script.some((s) => s === '*' || s === 'http:' || s === 'https:' || s === 'data:'),
        `${path}: script-src ${script.join(' ')}`,
      ).toBe(false);
      expect(d.get('object-src'), path).toEqual(["'none'"]);
      expect(d.get('frame-ancestors'), path).toEqual(["'none'"]);
      expect(res.headers()['x-content-type-options']).toBe('nosniff');
      const html = await res.text();
      for (const tag of html.match(/<script\b[^>]*>/gi) ?? []) expect(tag, `${path}: inline script`).toMatch(/\bsrc=/);
      expect(html, path).not.toMatch(/\son[a-z]+=/i); // no inline event handlers either
    }
  });

  test('every page works under the CSP with no violation, and no demo token shows up in a URL, console line or the page', async ({
    page,
  }) => {
    const seen = await watch(page);
    // alice sees every page; the other tokens the pages whose shell shows who is signed in.
    for (const token of [TOKENS.aliceWrite, TOKENS.aliceRead, TOKENS.bobWrite, TOKENS.carolFine]) {
      await signIn(page, token, '/inbox');
      for (const path of token === TOKENS.aliceWrite ? PAGES : ['/inbox', '/orgs/acme']) {
        await page.goto(path);
        await expect(page.locator('main h1, main h2').first()).toBeVisible();
        // Let lazy chunks, queries and workers settle before reading the violation log.
        await page.waitForLoadState('networkidle').catch(() => undefined);
        expect(await violationsIn(page), `${token} ${path}`).toEqual([]);
        const text = await page.locator('body').innerText();
        for (const t of ALL_TOKENS) expect(text.includes(t), `${t} visible on ${path}`).toBe(false);
      }
      await page.evaluate(() => sessionStorage.clear());
    }
    expect(seen.violations).toEqual([]);
    expect(seen.documentCsp.length).toBeGreaterThan(0);
    for (const csp of seen.documentCsp) expect(csp).toBeTruthy();
    for (const t of ALL_TOKENS) {
      expect(
        seen.urls.filter((u) => u.includes(t)),
        `${t} in a URL`,
      ).toEqual([]);
      expect(
        seen.console.filter((l) => l.includes(t)),
        `${t} in the console`,
      ).toEqual([]);
    }
  });

  test('the model preview runs a WASM forward pass in its worker under the CSP with no violation', async ({ page }) => {
    test.setTimeout(300_000);
    const seen = await watch(page);
    let workerCsp: string | undefined;
    page.on('response', (r) => {
      if (/model\.worker[^/]*\.js/.test(r.url())) workerCsp = r.headers()['content-security-policy'];
    });
    await signIn(
      page,
      TOKENS.aliceWrite,
      `/preview?repo=${encodeURIComponent('consisid-community/consisid-tiny')}&provider=wasm`,
    );
    await expect(page.getByTestId('provider-reason')).not.toHaveText(/Checking/);
    await page.getByRole('button', { name: 'Inspect' }).click();
    await expect(page.getByTestId('checkpoint-summary')).toBeVisible();
    await page.getByRole('button', { name: 'Run forward pass' }).click();
    await expect(page.getByTestId('provider-used')).toHaveText('wasm', { timeout: 240_000 });
    await expect(page.getByTestId('preview-error')).toHaveCount(0);
    expect(await violationsIn(page)).toEqual([]);
    expect(seen.violations).toEqual([]);
    // A worker's own violations are not reported to the page, so check the two halves directly:
    // the worker script is served under the CSP (no eval), and zod inside it is jitless (never
    // probes `new Function`). Evaluating a probe from the test would not do: CDP bypasses the CSP.
    expect(workerCsp, 'CSP header on the worker script').toBeTruthy();
    expect(directives(workerCsp!).get('script-src')).not.toContain("'unsafe-eval'");
    const worker = page.workers().find((w) => /model\.worker/.test(w.url()));
    expect(worker, 'the model worker').toBeDefined();
    const jitless = await worker!.evaluate(
      () => (globalThis as { __zod_globalConfig?: { jitless?: boolean } }).__zod_globalConfig?.jitless,
    );
    expect(jitless).toBe(true);
  });

  test('hub errors and failed requests never echo the token', async ({ page }) => {
    const seen = await watch(page);
    // The hub's own error text, a transport failure and a 401 (session ended) in turn.
    await page.route('**/api/settings/webhooks', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ error: 'hub exploded' }) }),
    );
    await page.route('**/api/settings/repositories**', (route) => route.abort('connectionreset'));
    await signIn(page, TOKENS.aliceWrite, '/webhooks');
    await expect(page.getByTestId('error-panel')).toBeVisible({ timeout: 30_000 });
    await page.goto('/storage');
    await expect(page.getByTestId('error-panel')).toBeVisible({ timeout: 30_000 });
    const text = await page.locator('body').innerText();
    await page.route('**/api/notifications**', (route) =>
      route.fulfill({
        status: 401,
        contentType: 'application/json',
        body: JSON.stringify({ error: 'Invalid credentials in Authorization header' }),
      }),
    );
    await page.goto('/inbox');
    await page.waitForURL(/\/sign-in/);
    for (const t of ALL_TOKENS) {
      expect(text.includes(t)).toBe(false);
      expect((await page.locator('body').innerText()).includes(t)).toBe(false);
      expect(seen.urls.filter((u) => u.includes(t))).toEqual([]);
      expect(seen.console.filter((l) => l.includes(t))).toEqual([]);
    }
  });

  test('HTML in paper fields renders as text (no element is created from it)', async ({ page }) => {
    await rewriteHubJson<{ title: string; summary: string; authors: { name: string }[] }>(
      page,
      '**/api/papers/*',
      (paper) => {
        paper.title = `Title ${PAYLOAD}`;
        paper.summary = PAYLOAD;
        paper.authors[0]!.name = `Author ${PAYLOAD}`;
      },
    );
    await signIn(page, TOKENS.aliceWrite, '/settings');
    const form = page.getByRole('form', { name: 'Claim paper authorship' });
    await form.getByLabel('Paper id').fill('2501.00001');
    await form.getByRole('button', { name: 'Look up' }).click();
    const authors = form.getByTestId('paper-authors');
    await expect(authors).toContainText(`Title ${PAYLOAD}`);
    await expect(authors).toContainText(`Author ${PAYLOAD}`);
    await expect(page.locator('[data-xss]')).toHaveCount(0);
    expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
  });

  test('HTML in notification, repository and audit fields creates no element either', async ({ page }) => {
    type Titled = { title: string } | undefined;
    await rewriteHubJson<{ notifications: { paper?: Titled; discussion?: Titled; post?: Titled; blog?: Titled }[] }>(
      page,
      /\/api\/notifications(\?|$)/,
      (body) => {
        // Every variant keeps its title in its own object (the schemas are strict).
        for (const n of body.notifications)
          for (const part of [n.paper, n.discussion, n.post, n.blog]) if (part) part.title = PAYLOAD;
      },
    );
    await rewriteHubJson<{ id: string }[]>(page, '**/api/settings/repositories*', (body) => {
      body[0]!.id = `alice/${PAYLOAD}`;
    });
    await rewriteHubJson<Record<string, unknown>[]>(page, /\/api\/organizations\/acme\/audit-log\/export/, (events) => {
      Object.assign(events[0]!, { message: PAYLOAD, userAgent: PAYLOAD, location: { formatted: PAYLOAD } });
    });
    await signIn(page, TOKENS.aliceWrite, '/inbox');
    await expect(page.getByText(PAYLOAD).first()).toBeVisible();
    await expect(page.locator('[data-xss]')).toHaveCount(0);
    await page.goto('/storage');
    await expect(page.getByRole('cell', { name: `alice/${PAYLOAD}` })).toBeVisible();
    await expect(page.locator('[data-xss]')).toHaveCount(0);
    await page.goto('/orgs/acme/audit-log');
    const first = page.getByRole('row').nth(1);
    await expect(first).toContainText(PAYLOAD, { timeout: 30_000 });
    await first.click();
    await expect(page.getByRole('dialog')).toContainText(PAYLOAD);
    await expect(page.locator('[data-xss]')).toHaveCount(0);
  });
});

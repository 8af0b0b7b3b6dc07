// The console of `npm start -- --hub-url` (the `hub-proxy` project): the whole dashboard walk through
// the console's own server, against a spec-only hub that sends no CORS headers, and not one request
// from the browser to any origin but the console's.
import { expect, test } from '@playwright/test';
import { walkEveryPage, watchPageErrors } from './spec-only-walk.ts';
import { signIn, TOKENS } from './support.ts';

test('every page works through the console against a hub without CORS, and no request leaves its origin', async ({
  page,
  context,
  baseURL,
  request,
}) => {
  const consoleOrigin = new URL(baseURL!).origin;
  // playwright.config.ts starts that hub on the port after the console's.
  const hubUrl = `http://127.0.0.1:${Number(new URL(baseURL!).port) + 1}`;
  const direct = await request.get(`${hubUrl}/api/whoami-v2`, {
    headers: { Authorization: `Bearer ${TOKENS.aliceWrite}`, Origin: consoleOrigin },
  });
  expect(direct.status()).toBe(200);
  expect(Object.keys(direct.headers()).filter((k) => k.startsWith('access-control-'))).toEqual([]);

  // Avatars are images the hub names on its CDN (seed: cdn.example.test): an <img> needs no CORS, the
  // browser loads it from there. Every other request, and any at all to the hub, stays off this list.
  const elsewhere: string[] = [];
  let avatars = 0;
  context.on('request', (r) => {
    const url = new URL(r.url());
    if (!url.protocol.startsWith('http') || url.origin === consoleOrigin) return;
    if (r.resourceType() === 'image' && url.origin !== hubUrl) avatars++;
    else elsewhere.push(`${r.resourceType()} ${r.method()} ${r.url()}`);
  });
  const errors = watchPageErrors(page);

  const signInPage = await page.goto('/sign-in');
  expect(signInPage!.headers()['content-security-policy']).toContain("connect-src 'self' blob: data:;");
  await expect(page.getByLabel('Hub URL')).toHaveValue(hubUrl);
  await expect(page.getByLabel('Hub URL')).not.toBeEditable();
  await signIn(page, TOKENS.aliceWrite, '/inbox');
  await expect(page.getByTitle('Hub URL')).toHaveText(hubUrl);
  await walkEveryPage(page);
  // The preview reads a checkpoint's config, and its weights' header by Range, on the same origin.
  await page.goto('/preview?repo=consisid-community/consisid-tiny&provider=wasm');
  await page.getByRole('button', { name: 'Inspect' }).click();
  await expect(page.getByTestId('weight-dtype')).toHaveText('F32');

  expect(errors).toEqual([]);
  expect(elsewhere).toEqual([]);
  expect(avatars, 'the walk shows avatars, so the filter above had something to let through').toBeGreaterThan(0);
});

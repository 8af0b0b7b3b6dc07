import { expect, test, type Page } from '@playwright/test';
import { expectAccessibleInBothThemes, failFirst } from './page-checks.ts';
import { captureConsole, signIn, TOKENS } from './support.ts';

const KEY = 'hub-console.session';
const stored = (page: Page) =>
  page.evaluate((k) => ({ session: sessionStorage.getItem(k), local: localStorage.getItem(k) }), KEY);

/** Every URL the page visits or requests, to prove the token never rides in one. */
function recordUrls(page: Page): string[] {
  const urls: string[] = [];
  page.on('request', (r) => urls.push(r.url()));
  page.on('framenavigated', (f) => urls.push(f.url()));
  return urls;
}

test.describe('shell', () => {
  test('signs in against the embedded hub by default; the token stays in sessionStorage only', async ({
    page,
    baseURL,
  }) => {
    const lines = captureConsole(page);
    const urls = recordUrls(page);
    await page.goto('/inbox');
    await expect(page).toHaveURL(/\/sign-in\?next=%2Finbox/);
    await expect(page.getByLabel('Hub URL')).toHaveValue(new URL(baseURL!).origin);
    await page.getByLabel('Access token').fill(TOKENS.aliceWrite);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/inbox$/);
    const s = await stored(page);
    expect(s.local).toBeNull();
    expect(JSON.parse(s.session!)).toMatchObject({ token: TOKENS.aliceWrite });

    await expect(page.getByTestId('whoami')).toContainText('Alice Liddell');
    // The unread count leads the tab title.
    const unread = await page.getByTestId('count-unread').textContent();
    expect(Number(unread)).toBeGreaterThan(0);
    await expect(page).toHaveTitle(`(${unread}) Inbox · Hub Console`);
    await expect(page.getByTestId('token-role')).toHaveText('write token');
    await expect(page.getByTestId('org-meta-acme')).toHaveText('Enterprise · admin');
    await expect(page.getByTestId('org-meta-teamco')).toHaveText('Team · admin');
    await expect(page.getByTestId('org-meta-freeorg')).toHaveText('Free · admin');
    await page.getByRole('link', { name: /^acme/ }).click();
    await expect(page).toHaveURL(/\/orgs\/acme$/);

    await page.reload();
    await expect(page.getByTestId('whoami')).toContainText('Alice Liddell');
    for (const u of urls) expect(u).not.toContain(TOKENS.aliceWrite);
    for (const l of lines) expect(l).not.toContain(TOKENS.aliceWrite);
    expect(await page.content()).not.toContain(TOKENS.aliceWrite);
  });

  test('"remember me" keeps the session in localStorage across tabs; sign out clears it everywhere', async ({
    page,
    context,
  }) => {
    await page.goto('/sign-in');
    await page.getByLabel('Access token').fill(TOKENS.bobWrite);
    await page.getByLabel('Remember me on this device').check();
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByTestId('whoami')).toContainText('Bob Builder');
    const s = await stored(page);
    expect(s.session).toBeNull();
    expect(JSON.parse(s.local!)).toMatchObject({ token: TOKENS.bobWrite });

    const tab = await context.newPage();
    await tab.goto('/settings');
    await expect(tab.getByTestId('whoami')).toContainText('Bob Builder');
    await tab.close();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/sign-in/);
    expect(await stored(page)).toEqual({ session: null, local: null });
    await page.goto('/settings');
    await expect(page).toHaveURL(/\/sign-in\?next=%2Fsettings/);
    await expect(page.getByRole('heading', { name: 'Sign in to Hub Console' })).toBeVisible();
  });

  test('a bad token is refused with the hub message and no trace of the token', async ({ page }) => {
    const lines = captureConsole(page);
    const secret = 'hf_not_a_real_token_123';
    await page.goto('/sign-in');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByText('Access token is required')).toBeVisible();
    await page.getByLabel('Hub URL').fill('not a url');
    await page.getByLabel('Access token').fill(secret);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByText(/Hub URL must be a full URL/)).toBeVisible();
    await page.getByLabel('Hub URL').fill(new URL(page.url()).origin);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const error = page.getByTestId('sign-in-error');
    await expect(error).toBeVisible();
    await expect(error).not.toContainText(secret);
    expect(page.url()).not.toContain(secret);
    expect(await stored(page)).toEqual({ session: null, local: null });
    for (const l of lines) expect(l).not.toContain(secret);
  });

  test('a 401 from the hub ends the session and comes back to the same page after signing in', async ({ page }) => {
    await signIn(page, TOKENS.aliceWrite, '/settings');
    await expect(page.getByRole('switch').first()).toBeVisible();
    await failFirst(
      page,
      '**/api/notifications**',
      { status: 401, body: JSON.stringify({ error: 'token expired' }) },
      1,
      'GET',
    );
    await page.getByRole('link', { name: 'Inbox' }).click();
    await expect(page).toHaveURL(/\/sign-in\?next=%2Finbox&expired=1/);
    await expect(page.getByText('Your session ended. Sign in again.')).toBeVisible();
    expect(await stored(page)).toEqual({ session: null, local: null });
    await page.getByLabel('Access token').fill(TOKENS.aliceWrite);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/inbox$/);
    await expect(page.getByTestId('notification-row').first()).toBeVisible();
  });

  test('whoami failing shows a retryable notice, not a broken shell', async ({ page }) => {
    await signIn(page, TOKENS.aliceWrite, '/settings');
    await expect(page.getByTestId('whoami')).toBeVisible(); // the first load must not eat the faults
    await failFirst(
      page,
      '**/api/whoami-v2',
      { status: 500, body: JSON.stringify({ error: 'whoami down' }) },
      3,
      'GET',
    );
    await page.reload();
    await expect(page.getByText('Account unavailable')).toBeVisible({ timeout: 20_000 });
    await expect(page.getByRole('switch').first()).toBeVisible();
    await page.getByRole('button', { name: 'Retry' }).click();
    await expect(page.getByTestId('whoami')).toContainText('Alice Liddell');
  });

  test('the theme toggle switches to dark and is remembered', async ({ page }) => {
    await signIn(page, TOKENS.aliceWrite, '/settings');
    const html = page.locator('html');
    const startDark = (await html.getAttribute('class'))?.includes('dark') ?? false;
    await page.getByRole('button', { name: /Switch to (dark|light) theme/ }).click();
    await expect(html).toHaveClass(startDark ? /^(?!.*dark)/ : /dark/);
    await page.reload();
    await expect(html).toHaveClass(startDark ? /^(?!.*dark)/ : /dark/);
    await page.getByRole('button', { name: /Switch to (dark|light) theme/ }).click();
  });

  test('"g" then a letter goes to a page', async ({ page }) => {
    await signIn(page, TOKENS.aliceWrite, '/inbox');
    await expect(page.getByTestId('notification-row').first()).toBeVisible();
    await page.keyboard.press('g');
    await page.keyboard.press('s');
    await expect(page).toHaveURL(/\/settings$/);
    await page.keyboard.press('g');
    await page.keyboard.press('i');
    await expect(page).toHaveURL(/\/inbox$/);
    // Typing in a field is left alone.
    await page.getByLabel('Repo name').fill('gs');
    await expect(page).toHaveURL(/\/inbox$/);
  });

  test('unknown pages say so inside the shell', async ({ page }) => {
    await signIn(page, TOKENS.aliceWrite, '/no/such/page');
    await expect(page.getByText('This page does not exist.')).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  });

  test('sign-in is accessible in light and dark themes', async ({ page }) => {
    await page.goto('/sign-in?expired=1');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByText('Access token is required')).toBeVisible();
    await expectAccessibleInBothThemes(page);
  });
});

// Signs each demo token in through the form once per hub (Playwright project), and keeps the
// session storage it leaves for every spec's `signIn` (bulletproof-react's auth.setup.ts, with
// sessionStorage, where the console keeps a session that is not remembered).
import { expect, test as setup } from '@playwright/test';
import { saveSessions, signInThroughForm, TOKENS } from './support.ts';

setup('each demo token signs in through the form', async ({ page, baseURL }) => {
  const sessions: Record<string, Record<string, string>> = {};
  for (const token of Object.values(TOKENS)) {
    await signInThroughForm(page, token, '/inbox');
    await expect(page.getByTestId('whoami')).toBeVisible();
    sessions[token] = await page.evaluate(() => ({ ...sessionStorage }));
    expect(Object.keys(sessions[token]!)).not.toEqual([]);
    await page.evaluate(() => sessionStorage.clear());
  }
  saveSessions(new URL(baseURL!).origin, sessions);
});

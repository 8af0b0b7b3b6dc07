import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { hub, rewriteHubJson } from './faults.ts';
import { expectAccessibleInBothThemes } from './page-checks.ts';
import { signIn, TOKENS } from './support.ts';

interface Usage {
  id: string;
  type: string;
  visibility: 'public' | 'private' | 'protected';
  storage: number;
  storagePercent: number;
  updatedAt: string;
}

const rows = (page: Page) => page.getByTestId('usage-row');
const PREFIX: Record<string, string> = {
  model: '',
  dataset: 'datasets/',
  space: 'spaces/',
  bucket: 'buckets/',
  kernel: 'kernels/',
};
const sum = (list: Usage[]) => list.reduce((s, r) => s + r.storage, 0);

async function downloadCsv(page: Page): Promise<{ name: string; text: string }> {
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const d = await download;
  return { name: d.suggestedFilename(), text: await readFile((await d.path())!, 'utf8') };
}

test.describe('storage as people read it', () => {
  test('totals cover every repository of the owner, split public/private, whatever the table shows', async ({
    page,
    request,
  }) => {
    const all = await hub(request, TOKENS.aliceWrite).call<Usage[]>('GET', '/api/settings/repositories');
    const pub = all.filter((r) => r.visibility === 'public');
    const priv = all.filter((r) => r.visibility === 'private');
    expect(pub.length).toBeGreaterThan(0);
    expect(priv.length).toBeGreaterThan(0);
    await signIn(page, TOKENS.aliceWrite, '/storage?type=dataset&limit=5');
    await expect(rows(page)).toHaveCount(5);
    await expect(page.getByTestId('total-count')).toHaveText(String(all.length));
    await expect(page.getByTestId('total-bytes')).toHaveAttribute('data-bytes', String(sum(all)));
    await expect(page.getByTestId('visibility-public')).toHaveAttribute('data-bytes', String(sum(pub)));
    await expect(page.getByTestId('visibility-public')).toHaveAttribute('data-count', String(pub.length));
    await expect(page.getByTestId('visibility-private')).toHaveAttribute('data-bytes', String(sum(priv)));
    await expect(page.getByTestId('visibility-private')).toHaveAttribute('data-count', String(priv.length));
    await expect(page.getByTestId('shown-summary')).toContainText(`Showing 5 of ${all.length} repositories`);
    for (const t of await rows(page).locator('td:nth-child(2)').allTextContents()) expect(t).toBe('dataset');
    await expectAccessibleInBothThemes(page);
  });

  test('repository names link to the repository on the hub', async ({ page, request, baseURL }) => {
    const all = await hub(request, TOKENS.aliceWrite).call<Usage[]>('GET', '/api/settings/repositories');
    await signIn(page, TOKENS.aliceWrite, '/storage');
    await expect(rows(page)).toHaveCount(all.length);
    const origin = new URL(baseURL!).origin;
    for (const r of all.filter((x, i) => all.findIndex((y) => y.type === x.type) === i)) {
      await expect(rows(page).getByRole('link', { name: r.id, exact: true })).toHaveAttribute(
        'href',
        `${origin}/${PREFIX[r.type]}${r.id}`,
      );
    }
  });

  test('exports the table as it is filtered to CSV', async ({ page, request, baseURL }) => {
    const models = await hub(request, TOKENS.aliceWrite).call<Usage[]>(
      'GET',
      '/api/settings/repositories?type=model&sort=updatedAt&direction=asc',
    );
    await signIn(page, TOKENS.aliceWrite, '/storage?type=model&sort=updatedAt&direction=asc');
    await expect(rows(page)).toHaveCount(models.length);
    const { name, text } = await downloadCsv(page);
    expect(name).toMatch(/^storage-alice-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = text.split('\r\n');
    expect(lines.at(-1)).toBe('');
    expect(lines[0]).toBe('repository,type,visibility,storage_bytes,storage_percent,updated_at,url');
    expect(lines.slice(1, -1)).toEqual(
      models.map((r) =>
        [
          r.id,
          r.type,
          r.visibility,
          r.storage,
          r.storagePercent,
          r.updatedAt,
          `${new URL(baseURL!).origin}/${r.id}`,
        ].join(','),
      ),
    );
  });

  test('a repository name that looks like a formula stays text in the CSV', async ({ page }) => {
    const evil = '=HYPERLINK("http://evil.test","open me")';
    await rewriteHubJson<Usage[]>(page, '**/api/settings/repositories*', (body) => {
      body[0]!.id = evil;
      body[1]!.id = 'alice/with,comma';
    });
    await signIn(page, TOKENS.aliceWrite, '/storage');
    await expect(rows(page).first().getByRole('link')).toHaveText(evil);
    const { text } = await downloadCsv(page);
    const [, first, second] = text.split('\r\n');
    expect(first!.startsWith(`"'=HYPERLINK(""http://evil.test"",""open me"")",`)).toBe(true);
    expect(second!.startsWith('"alice/with,comma",')).toBe(true);
  });
});

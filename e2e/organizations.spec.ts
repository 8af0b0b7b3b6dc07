import { expect, test, type Page } from '@playwright/test';
import { breakHub, expectErrorPanelThenRecover, hub, rewriteHubJson } from './faults.ts';
import { expectAccessibleInBothThemes } from './page-checks.ts';
import { signIn, TOKENS } from './support.ts';

interface Group {
  id: string;
  name: string;
  description?: string | null;
  users: { name: string; role: string }[];
  resources: unknown[];
}

const groupButtons = (page: Page) => page.getByRole('list', { name: 'Resource groups' }).getByRole('button');
const detail = (page: Page) => page.getByTestId('group-detail');

/** Counts writes to resource groups, to prove blocked input is never sent. */
function countGroupWrites(page: Page) {
  let writes = 0;
  page.on('request', (r) => {
    if (r.method() !== 'GET' && r.url().includes('/resource-groups')) writes++;
  });
  return () => writes;
}

test.describe('organizations', () => {
  test('lists resource groups and shows one with users, roles, resources and auto-join', async ({ page, request }) => {
    const groups = await hub(request, TOKENS.aliceWrite).call<Group[]>(
      'GET',
      '/api/organizations/acme/resource-groups',
    );
    await signIn(page, TOKENS.aliceWrite, '/orgs/acme');
    await expect(groupButtons(page)).toHaveCount(groups.length);
    const g = groups.find((x) => x.users.length > 0)!;
    await groupButtons(page).filter({ hasText: g.name }).click();
    await expect(page).toHaveURL(new RegExp(`/orgs/acme/resource-groups/${g.id}$`));
    await expect(detail(page).getByRole('heading', { name: g.name })).toBeVisible();
    await expect(detail(page).getByTestId('auto-join')).toContainText('Auto-join');
    const users = detail(page).getByRole('table', { name: 'Users' });
    for (const u of g.users)
      await expect(users.getByRole('row', { name: new RegExp(`^${u.name} `) })).toContainText(u.role);
    await expect(detail(page)).toContainText(`Resources (${g.resources.length})`);
    await expectAccessibleInBothThemes(page);
    // The selected group is part of the URL: reload shows it again.
    await page.reload();
    await expect(detail(page).getByRole('heading', { name: g.name })).toBeVisible();
  });

  test('blocks a name over 200 characters inline and saves a valid rename', async ({ page, request }) => {
    const api = hub(request, TOKENS.aliceWrite);
    const [g] = await api.call<Group[]>('GET', '/api/organizations/acme/resource-groups');
    const writes = countGroupWrites(page);
    try {
      await signIn(page, TOKENS.aliceWrite, `/orgs/acme/resource-groups/${g!.id}`);
      const name = detail(page).getByLabel('Name');
      await name.fill('x'.repeat(201));
      await expect(name).toHaveAttribute('aria-invalid', 'true');
      await expect(
        detail(page).getByRole('alert').filter({ hasText: 'name must be 1 to 200 characters' }),
      ).toBeVisible();
      await detail(page).getByRole('button', { name: 'Save' }).click();
      await expect(name).toBeFocused();
      await detail(page).getByLabel('Description').fill('d'.repeat(501));
      await expect(
        detail(page).getByRole('alert').filter({ hasText: 'description must be at most 500 characters' }),
      ).toBeVisible();
      expect(writes()).toBe(0);

      await name.fill(`${g!.name} (renamed)`);
      await detail(page).getByLabel('Description').fill('Renamed by the e2e suite');
      await detail(page).getByRole('button', { name: 'Save' }).click();
      await expect(detail(page).getByRole('heading', { name: `${g!.name} (renamed)` })).toBeVisible();
      await expect(groupButtons(page).filter({ hasText: `${g!.name} (renamed)` })).toBeVisible();
      const after = await api.call<Group>('GET', `/api/organizations/acme/resource-groups/${g!.id}`);
      expect(after.name).toBe(`${g!.name} (renamed)`);
    } finally {
      await api.call('PATCH', `/api/organizations/acme/resource-groups/${g!.id}`, {
        name: g!.name,
        description: g!.description ?? '',
      });
    }
  });

  test('shows a hub 400 next to the field it names', async ({ page, request }) => {
    const [g] = await hub(request, TOKENS.aliceWrite).call<Group[]>('GET', '/api/organizations/acme/resource-groups');
    await page.route(`**/api/organizations/acme/resource-groups/${g!.id}`, (route) =>
      route.request().method() === 'PATCH'
        ? route.fulfill({
            status: 400,
            contentType: 'application/json',
            body: JSON.stringify({ error: 'body.name: a resource group with this name already exists' }),
          })
        : route.fallback(),
    );
    await signIn(page, TOKENS.aliceWrite, `/orgs/acme/resource-groups/${g!.id}`);
    await detail(page).getByLabel('Name').fill('Duplicate');
    await detail(page).getByRole('button', { name: 'Save' }).click();
    await expect(detail(page).getByLabel('Name')).toHaveAttribute('aria-invalid', 'true');
    await expect(detail(page).getByRole('alert').filter({ hasText: 'already exists' })).toBeVisible();
  });

  test('creates a group and deletes it after confirmation', async ({ page, request }) => {
    const api = hub(request, TOKENS.aliceWrite);
    const name = `e2e group ${Date.now()}`;
    await signIn(page, TOKENS.aliceWrite, '/orgs/teamco');
    await page.getByRole('button', { name: 'New resource group' }).click();
    const form = page.getByRole('form', { name: 'New resource group' });
    await form.getByRole('button', { name: 'Create group' }).click();
    await expect(form.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true');
    await form.getByLabel('Name').fill(name);
    await form.getByRole('button', { name: 'Create group' }).click();
    await expect(detail(page).getByRole('heading', { name })).toBeVisible();
    expect(
      (await api.call<Group[]>('GET', '/api/organizations/teamco/resource-groups')).some((g) => g.name === name),
    ).toBe(true);

    await detail(page).getByRole('button', { name: 'Delete group' }).click();
    const dialog = page.getByRole('dialog', { name: `Delete ${name}?` });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(detail(page)).toBeVisible();
    await detail(page).getByRole('button', { name: 'Delete group' }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(groupButtons(page).filter({ hasText: name })).toHaveCount(0);
    expect(
      (await api.call<Group[]>('GET', '/api/organizations/teamco/resource-groups')).some((g) => g.name === name),
    ).toBe(false);
  });

  test('a failed delete keeps the group and says why', async ({ page, request }) => {
    const api = hub(request, TOKENS.aliceWrite);
    const [g] = await api.call<Group[]>('GET', '/api/organizations/acme/resource-groups');
    await page.route(`**/api/organizations/acme/resource-groups/${g!.id}`, (route) =>
      route.request().method() === 'DELETE'
        ? route.fulfill({
            status: 500,
            contentType: 'application/json',
            body: JSON.stringify({ error: 'injected delete failure' }),
          })
        : route.fallback(),
    );
    await signIn(page, TOKENS.aliceWrite, `/orgs/acme/resource-groups/${g!.id}`);
    await detail(page).getByRole('button', { name: 'Delete group' }).click();
    const dialog = page.getByRole('dialog', { name: `Delete ${g!.name}?` });
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(dialog.getByRole('alert')).toContainText('injected delete failure');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(groupButtons(page).filter({ hasText: g!.name })).toBeVisible();
    await expect(detail(page).getByRole('heading', { name: g!.name })).toBeVisible();
    expect(
      (await api.call<Group[]>('GET', '/api/organizations/acme/resource-groups')).some((x) => x.id === g!.id),
    ).toBe(true);
  });

  test('explains plan gates on a free organization instead of breaking', async ({ page }) => {
    await signIn(page, TOKENS.aliceWrite, '/orgs/freeorg');
    const gates = page.getByTestId('gate-panel');
    await expect(
      gates.filter({ hasText: 'Resource groups need the Team plan or higher; freeorg is on Free.' }),
    ).toBeVisible();
    await expect(
      gates.filter({ hasText: 'Revoking member tokens needs the Enterprise plan; freeorg is on Free.' }),
    ).toBeVisible();
    await expect(page.getByTestId('error-panel')).toHaveCount(0);
    await expectAccessibleInBothThemes(page);
  });

  test('explains the hub 403 when the plan is not known in advance', async ({ page }) => {
    // whoami without the plan: the page asks the hub, which answers 403 for freeorg.
    await rewriteHubJson<{ orgs: { name: string; plan?: string }[] }>(page, '**/api/whoami-v2', (me) => {
      for (const o of me.orgs) delete o.plan;
    });
    await signIn(page, TOKENS.aliceWrite, '/orgs/freeorg');
    await expect(page.getByTestId('gate-panel').filter({ hasText: 'Team plan or higher' })).toContainText('freeorg');
  });

  test('token revoke: only Enterprise admins, with the reason shown otherwise', async ({ page }) => {
    await signIn(page, TOKENS.aliceWrite, '/orgs/teamco');
    await expect(
      page
        .getByTestId('gate-panel')
        .filter({ hasText: 'Revoking member tokens needs the Enterprise plan; teamco is on Team.' }),
    ).toBeVisible();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn(page, TOKENS.bobWrite, '/orgs/acme');
    await expect(
      page
        .getByTestId('gate-panel')
        .filter({ hasText: 'Only organization admins can revoke member tokens; your role in acme is read.' }),
    ).toBeVisible();
    await expect(page.getByTestId('manage-gate')).toContainText('Only organization admins');
  });

  test('token revoke validates the token, shows the hub answer by the field, and never echoes it', async ({ page }) => {
    await signIn(page, TOKENS.aliceWrite, '/orgs/acme');
    const form = page.getByRole('form', { name: 'Revoke a member token' });
    const field = form.getByLabel('Access token');
    await field.fill('not-a-token');
    await form.getByRole('button', { name: 'Revoke access' }).click();
    await expect(field).toHaveAttribute('aria-invalid', 'true');
    await expect(form.getByRole('alert')).toContainText('beginning with hf_');

    // Unknown token: the hub's 404 names body.token.
    await field.fill('hf_e2e_unknown_token_value');
    await form.getByRole('button', { name: 'Revoke access' }).click();
    await expect(form.getByRole('alert')).toContainText('no access token of a member');

    // Success is routed: a real revocation cannot be undone in the shared hub of this run.
    let sent: unknown = null;
    await page.route('**/api/organizations/acme/settings/tokens/revoke', (route) => {
      sent = route.request().postDataJSON();
      return route.fulfill({ status: 200, contentType: 'application/json', body: '{}' });
    });
    await field.fill('hf_e2e_member_token_value');
    await form.getByRole('button', { name: 'Revoke access' }).click();
    await expect(form.getByRole('status')).toHaveText('The token no longer has access to acme.');
    expect(sent).toEqual({ token: 'hf_e2e_member_token_value' });
    await expect(field).toHaveValue('');
    await expect(page.getByText('hf_e2e_member_token_value')).toHaveCount(0);
  });

  test('renders HTML in group names as text', async ({ page, request }) => {
    const api = hub(request, TOKENS.aliceWrite);
    const name = '<img src=x onerror="window.__xss=1">';
    const g = await api.call<Group>('POST', '/api/organizations/teamco/resource-groups', {
      name,
      description: '<b>bold?</b>',
    });
    try {
      await signIn(page, TOKENS.aliceWrite, `/orgs/teamco/resource-groups/${g.id}`);
      await expect(detail(page).getByRole('heading', { name })).toBeVisible();
      await expect(detail(page)).toContainText('<b>bold?</b>');
      await expect(page.locator('img[src="x"]')).toHaveCount(0);
      expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
    } finally {
      await api.call('DELETE', `/api/organizations/teamco/resource-groups/${g.id}`);
    }
  });

  for (const fault of ['500', 'malformed', 'timeout'] as const) {
    test(`a hub ${fault} on resource groups shows the error panel and retry recovers`, async ({ page }) => {
      await signIn(page, TOKENS.aliceWrite, '/inbox');
      const broken = await breakHub(page, /\/api\/organizations\/acme\/resource-groups$/, fault);
      await page.getByRole('link', { name: /^acme/ }).click();
      await expectErrorPanelThenRecover(page, fault, broken);
      await expect(groupButtons(page).first()).toBeVisible();
    });
  }
});

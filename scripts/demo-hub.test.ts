import { describe, expect, it } from 'vitest';
import { createDemoHub } from './demo-hub.ts';

describe('the demo hub (npm start, npm run hub, npm run dev)', () => {
  it('serves the demo checkpoint repos as hf_hub_download asks for them, in either mode', async () => {
    for (const specOnly of [false, true]) {
      const { hub, demoRepoIds } = await createDemoHub({ specOnly });
      expect(demoRepoIds).toEqual(['consisid-community/consisid-tiny', 'consisid-community/consisid-preview-s']);
      for (const repo of demoRepoIds) {
        const res = await hub.app.request(`/${repo}/resolve/main/transformer/config.json`);
        expect(res.status, repo).toBe(200);
        expect(res.headers.get('x-repo-commit')).toMatch(/^[0-9a-f]{40}$/);
        expect((await res.json()) as object).toHaveProperty('num_layers');
      }
      await hub.close();
    }
  });

  it('a --repo naming a demo repository serves the folder in its place', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const path = await import('node:path');
    const dir = mkdtempSync(path.join(tmpdir(), 'demo-hub-'));
    writeFileSync(path.join(dir, 'config.json'), '{"mine":true}');
    const { hub, demoRepoIds } = await createDemoHub({}, [{ repoId: 'consisid-community/consisid-tiny', dir }]);
    expect(demoRepoIds).toEqual(['consisid-community/consisid-preview-s']);
    expect(await (await hub.app.request('/consisid-community/consisid-tiny/resolve/main/config.json')).json()).toEqual({
      mine: true,
    });
    expect(
      (await hub.app.request('/consisid-community/consisid-tiny/resolve/main/transformer/config.json')).status,
    ).toBe(404);
    await hub.close();
  });
});

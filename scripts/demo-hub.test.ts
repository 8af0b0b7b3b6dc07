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
});

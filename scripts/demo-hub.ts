// The mock hub as `npm start`, `npm run hub` and `npm run dev` serve it: with the model preview's
// demo checkpoints (deterministic random weights, diffusers layout), so `hf_hub_download` and the
// preview page work against it alone, and with the user's own checkpoint folders (`--repo`).
import { createMockHub, type MockHub, type MockHubOptions } from '../src/mock-hub/app.ts';
import type { RepoFolder } from '../src/mock-hub/files/repo-folder-flag.ts';
import { demoCheckpoints } from '../src/model/models/consisid/demo-checkpoints.ts';

export async function createDemoHub(
  opts: MockHubOptions,
  repoFolders: readonly RepoFolder[] = [],
): Promise<{ hub: MockHub; demoRepoIds: string[] }> {
  const hub = await createMockHub(opts);
  // a --repo naming a demo repository is served in its place (the user asked for that name)
  const demos = demoCheckpoints().filter((d) => !repoFolders.some((r) => r.repoId === d.repoId));
  for (const d of demos) hub.registerRepoFiles(d.repoId, d.files);
  for (const r of repoFolders) hub.registerRepoFolder(r.repoId, r.dir);
  return { hub, demoRepoIds: demos.map((d) => d.repoId) };
}

/** Banner lines both entry points print about the demo repos, the local repos and the mode. */
export function demoHubLines(
  demoRepoIds: string[],
  specOnly: boolean,
  repoFolders: readonly RepoFolder[] = [],
  url = '',
): string[] {
  return [
    `Demo checkpoints: ${demoRepoIds.join(', ')}`,
    ...repoFolders.map((r) => `Local repo: ${r.repoId} = ${r.dir}  (${url}/${r.repoId}/resolve/main/...)`),
    ...(specOnly ? ["Spec-only: the spec's endpoints and the real hub's extensions; mock-only routes answer 404"] : []),
  ];
}

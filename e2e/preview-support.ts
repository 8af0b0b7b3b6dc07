// Shared steps of the model preview specs.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect, type Page } from '@playwright/test';
import { entryToFloat32, parseSafetensors } from '../src/model/io/safetensors/read.ts';
import { signIn } from './support.ts';

export async function openPreview(
  page: Page,
  repoId: string,
  provider: 'auto' | 'webgpu' | 'wasm' = 'auto',
  query = '',
) {
  await signIn(page, undefined, `/preview?repo=${encodeURIComponent(repoId)}&provider=${provider}${query}`);
  await expect(page.getByRole('heading', { name: 'Model preview' })).toBeVisible();
  await expect(page.getByTestId('provider-reason')).not.toHaveText(/Checking/);
}

/** the output tensor through the page's own "Download output (.safetensors)" button */
export async function downloadedOutput(page: Page): Promise<{ shape: number[]; data: Float32Array }> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download output (.safetensors)' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('consisid-output.safetensors');
  const bytes = new Uint8Array(readFileSync(await download.path()));
  const f = parseSafetensors(bytes, 'consisid-output.safetensors');
  const e = f.tensors.get('sample')!;
  return { shape: e.shape, data: entryToFloat32(e, 'sample') };
}

/** a hub of its own on `port` serving local checkpoint folders (`owner/name=folder`), once it answers */
export async function startFolderHub(port: number, repos: readonly string[]): Promise<ChildProcess> {
  const server = spawn(
    process.execPath,
    ['--import', 'tsx', 'scripts/serve.ts', '--port', String(port), '--fresh', ...repos.flatMap((r) => ['--repo', r])],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  await expect
    .poll(
      () =>
        fetch(`http://127.0.0.1:${port}/api/health`).then(
          (r) => r.ok,
          () => false,
        ),
      { timeout: 60_000 },
    )
    .toBe(true);
  return server;
}

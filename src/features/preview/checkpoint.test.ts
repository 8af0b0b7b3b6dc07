import { describe, expect, it } from 'vitest';
import { checkpointFileVersions, fileVersions, type CheckpointInfo } from './checkpoint.ts';

const file = (url: string, size: number) => ({ url, etag: `"${size}"`, size, name: url.split('/').pop()! });
const info = (vae: CheckpointInfo['vae']) =>
  ({
    files: [file('https://hub/r/resolve/main/transformer/a.safetensors', 10)],
    vae,
  }) as unknown as CheckpointInfo;

describe('checkpointFileVersions', () => {
  it("names the vae/'s files beside the transformer's, so removing the checkpoint empties what a decode cached", () => {
    const vaeFile = file('https://hub/r/resolve/main/vae/diffusion_pytorch_model.safetensors', 7);
    const withVae = info({
      ref: { repoId: 'r', subfolder: 'vae', revision: 'main' },
      rawConfig: {},
      files: [vaeFile],
      bytes: 7,
    } as never);
    expect(checkpointFileVersions(withVae).map((f) => f.url)).toEqual([
      'https://hub/r/resolve/main/transformer/a.safetensors',
      vaeFile.url,
    ]);
    expect(checkpointFileVersions(withVae)[1]).toEqual({ url: vaeFile.url, etag: '"7"', size: 7 });
    // the cache listing (per transformer file, in order) stays the transformer's alone
    expect(fileVersions(withVae)).toHaveLength(1);
  });

  it('without a usable vae/ it is the transformer files alone', () => {
    expect(checkpointFileVersions(info({ error: 'no vae/' }))).toEqual(fileVersions(info({ error: 'no vae/' })));
  });
});

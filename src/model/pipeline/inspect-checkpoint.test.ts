import { describe, expect, it } from 'vitest';
import { consisidTinyFiles, DEMO_VAE_CONFIG } from '../models/consisid/demo-checkpoints.ts';
import { randomVaeFiles } from '../models/vae/random-vae.ts';
import type { CheckpointRef } from './checkpoint-info.ts';
import { inspectCheckpoint, vaeSubfolder } from './inspect-checkpoint.ts';

/** a hub without Range support serving these files of one repository */
function hubOf(files: readonly { path: string; bytes: Uint8Array }[]): CheckpointRef {
  const byUrl = new Map(files.map((f) => [`http://hub/o/r/resolve/main/${f.path}`, f.bytes]));
  const fetch = async (url: string | URL) => {
    const body = byUrl.get(String(url));
    return body
      ? new Response(body.slice(), { headers: { 'content-length': String(body.length), etag: '"e"' } })
      : new Response(null, { status: 404 });
  };
  const ref = { hubUrl: 'http://hub', repoId: 'o/r', subfolder: 'transformer', revision: 'main', token: null, fetch };
  return ref;
}

const transformer = () => consisidTinyFiles().filter((f) => f.path.startsWith('transformer/'));
const withVaeConfig = (text: string) => [
  ...transformer(),
  { path: 'vae/config.json', bytes: new TextEncoder().encode(text) },
];

describe("the inspection's VAE", () => {
  it('is the vae/ beside the transformer: its config and weight files with their sizes', async () => {
    const info = await inspectCheckpoint(hubOf(consisidTinyFiles()));
    if ('error' in info.vae) throw new Error(info.vae.error);
    expect(info.vae.ref.subfolder).toBe('vae');
    expect(info.vae.rawConfig).toMatchObject({ latent_channels: 4, _class_name: 'AutoencoderKLCogVideoX' });
    const weights = randomVaeFiles(DEMO_VAE_CONFIG).find((f) => f.path.endsWith('.safetensors'))!;
    expect(info.vae.files.map((f) => [f.name, f.size])).toEqual([[weights.path, weights.bytes.length]]);
    expect(info.vae.bytes).toBe(weights.bytes.length);
    // the transformer's files are its own
    expect(info.files.map((f) => f.name)).toEqual(['diffusion_pytorch_model.safetensors']);
  });

  it('says why it cannot decode: no vae/, a config that is not JSON, a config it cannot read', async () => {
    const cases: [readonly { path: string; bytes: Uint8Array }[], RegExp][] = [
      [transformer(), /o\/r\/vae\/config\.json is not on the hub \(HTTP 404\): this checkpoint has no VAE/],
      [withVaeConfig('{"block_out_channels": [8,'), /o\/r\/vae\/config\.json is not valid JSON/],
      [withVaeConfig(JSON.stringify({ ...DEMO_VAE_CONFIG, norm_num_groups: 3 })), /block_out_channels/],
      [
        withVaeConfig(JSON.stringify({ ...DEMO_VAE_CONFIG, latent_channels: 16 })),
        /latent_channels 16, the transformer's out_channels 4/,
      ],
      [withVaeConfig(JSON.stringify(DEMO_VAE_CONFIG)), /diffusion_pytorch_model\.safetensors/],
    ];
    for (const [files, why] of cases) {
      const info = await inspectCheckpoint(hubOf(files));
      expect(info.files).toHaveLength(1);
      expect('error' in info.vae && info.vae.error).toMatch(why);
    }
  });

  it('lives beside the transformer folder', () => {
    expect(['', 'transformer', 'a/transformer', 'a/b/t'].map(vaeSubfolder)).toEqual(['vae', 'vae', 'a/vae', 'a/b/vae']);
  });
});

import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseConfig } from '../../graph/config.ts';
import { linspaceF32, prepareRotaryEmbeddings, pythonRound, resizeCropRegionForGrid } from './rope.ts';
import { fixtureDir, loadFixture } from '../../test-support/fixtures.ts';
import { toFloat32 } from '../../io/safetensors/dtype.ts';

describe('prepareRotaryEmbeddings', () => {
  it('reproduces the tiny-rope fixture tables from the recorded video size', () => {
    const f = loadFixture('tiny-rope');
    const from = f.meta.image_rotary_emb_from!;
    const config = parseConfig(JSON.parse(readFileSync(path.join(fixtureDir('tiny-rope'), 'config.json'), 'utf8')));
    const [cos, sin] = prepareRotaryEmbeddings(config, {
      height: from.height_px,
      width: from.width_px,
      numFrames: from.num_latent_frames,
      vaeScaleFactorSpatial: from.vae_scale_factor_spatial,
    });
    for (const [mine, name] of [
      [cos, 'image_rotary_emb.cos'],
      [sin, 'image_rotary_emb.sin'],
    ] as const) {
      const ref = f.inputs.get(name)!;
      expect(mine.shape).toEqual(ref.shape);
      const r = toFloat32(ref.dtype, ref.data);
      const m = mine.data as Float32Array;
      let maxErr = 0;
      for (let i = 0; i < r.length; i++) maxErr = Math.max(maxErr, Math.abs(m[i]! - r[i]!));
      expect(maxErr).toBeLessThan(1e-6);
    }
  });

  it('uses the crop region of the configured sample grid', () => {
    expect(resizeCropRegionForGrid([4, 6], 4, 3)).toEqual([
      [0, 0],
      [3, 4],
    ]);
    expect(resizeCropRegionForGrid([30, 45], 45, 30)).toEqual([
      [0, 0],
      [30, 45],
    ]);
    expect(resizeCropRegionForGrid([10, 10], 4, 2)).toEqual([
      [0, 1],
      [2, 3],
    ]);
  });

  it('rounds like Python and spaces like torch.linspace', () => {
    expect([0.5, 1.5, 2.5, -0.5, 2.4].map(pythonRound)).toEqual([0, 2, 2, -0, 2]);
    expect(Array.from(linspaceF32(0, 1, 5))).toEqual([0, 0.25, 0.5, 0.75, 1]);
    expect(Array.from(linspaceF32(3, 9, 1))).toEqual([3]);
  });

  it('returns (frames * gridH * gridW, attention_head_dim) tables', () => {
    const [cos] = prepareRotaryEmbeddings(parseConfig({ use_rotary_positional_embeddings: true }), {
      height: 480,
      width: 720,
      numFrames: 13,
    });
    expect(cos.shape).toEqual([13 * 30 * 45, 64]);
  });
});

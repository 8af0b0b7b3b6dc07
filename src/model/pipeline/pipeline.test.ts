import { describe, expect, it } from 'vitest';
import { parseConfig } from '../graph/config.ts';
import { CONSISID_PREVIEW_S_CONFIG, CONSISID_TINY_CONFIG } from '../models/consisid/demo-checkpoints.ts';
import { buildConsisIDGraph } from '../graph/transformer.ts';
import { CONSISID_CONFIG } from '../models/consisid/named-configs.ts';
import { plannedWeights } from '../plan/plan.ts';
import { parseSafetensorsHeader } from '../io/safetensors/read.ts';
import { writeSafetensors } from '../io/safetensors/write.ts';
import { summarizeHeader } from './inspect-checkpoint.ts';
import { forwardArgs, gaussian, generateInputs, randomTensor } from './inputs.ts';
import { defaultSpec, inputLimits, specShape } from '../graph/input-spec.ts';
import { channelStats, frameToRgba, latentView, rgbProjection } from './latent-view.ts';
import { alphasCumprod, createDdim, ddimTimesteps, guide } from './scheduler.ts';
import { parseIdentityUpload, parseTextUpload } from './uploads.ts';

const tiny = parseConfig(CONSISID_TINY_CONFIG);
const face = parseConfig(CONSISID_PREVIEW_S_CONFIG);
/** the released ConsisID's config at 2 of its 42 layers (the shape rules are the same) */
const RELEASED = { ...CONSISID_CONFIG, num_layers: 2 };

describe('generated inputs', () => {
  it('are deterministic per seed and tensor, standard normal', () => {
    const a = gaussian(7, 'x', 20000);
    expect(gaussian(7, 'x', 20000)).toEqual(a);
    expect(gaussian(8, 'x', 4)).not.toEqual(a.subarray(0, 4));
    expect(gaussian(7, 'y', 4)).not.toEqual(a.subarray(0, 4));
    const mean = a.reduce((s, v) => s + v, 0) / a.length;
    const std = Math.sqrt(a.reduce((s, v) => s + (v - mean) ** 2, 0) / a.length);
    expect(Math.abs(mean)).toBeLessThan(0.03);
    expect(Math.abs(std - 1)).toBeLessThan(0.03);
  });

  it('have the forward shapes of the config, identity inputs only with the identity module', () => {
    const s = defaultSpec(tiny);
    const i = generateInputs(tiny, s);
    expect(i.hidden_states.shape).toEqual([1, s.frames, 4, s.height, s.width]);
    expect(i.encoder_hidden_states.shape).toEqual([1, s.textLength, 32]);
    expect(i.id_cond).toBeUndefined();
    const f = generateInputs(face, { ...defaultSpec(face), vitTokens: 5 });
    expect(f.id_cond!.shape).toEqual([1, 64]);
    expect(f.id_vit_hidden!.map((t) => t.shape)).toEqual([
      [1, 5, 64],
      [1, 5, 64],
    ]);
    // changing the text length leaves the latents alone
    expect(generateInputs(tiny, { ...s, textLength: 3 }).hidden_states.data).toEqual(i.hidden_states.data);
  });

  it('keep to the config limits', () => {
    const l = inputLimits(tiny);
    expect(l.frames.max).toBe(3);
    expect(l.height).toMatchObject({ max: 12, step: 2 });
  });

  it('add rotary tables for rotary configs', () => {
    const s = { ...defaultSpec(face), vitTokens: 3 };
    const a = forwardArgs(face, generateInputs(face, s));
    expect(a.image_rotary_emb![0].shape).toEqual([(s.frames * s.height * s.width) / 4, 16]);
    expect(forwardArgs(tiny, generateInputs(tiny, defaultSpec(tiny))).image_rotary_emb).toBeUndefined();
  });
});

describe('the graph a spec builds', () => {
  it("plans the graph a run builds: the default spec's shape is the one the forward inputs have", () => {
    const face = parseConfig(CONSISID_PREVIEW_S_CONFIG);
    const spec = { ...defaultSpec(face), vitTokens: 9 };
    const shape = specShape(face, spec);
    const inputs = generateInputs(face, spec);
    expect([1, shape.frames, face.in_channels, shape.height, shape.width]).toEqual(inputs.hidden_states.shape);
    expect(shape.textLength).toBe(inputs.encoder_hidden_states.shape[1]);
    expect(shape.face?.vitLengths).toEqual(inputs.id_vit_hidden!.map((t) => t.shape[1]));
    expect(specShape(face, { ...spec, identity: false }).face).toBeNull();
  });

  it('learned positional embeddings pin the text length too: the default run of the released config builds', () => {
    const config = parseConfig(RELEASED);
    const spec = defaultSpec(config);
    expect(spec.textLength).toBe(226);
    expect(() => buildConsisIDGraph(config, plannedWeights(config), specShape(config, spec))).not.toThrow();
  });
});

describe('DDIM scheduler', () => {
  it('uses trailing timesteps', () => {
    expect(ddimTimesteps(4)).toEqual([999, 749, 499, 249]);
    expect(ddimTimesteps(3)).toEqual([999, 666, 332]);
    expect(ddimTimesteps(50)).toHaveLength(50);
  });

  it('rescales to zero terminal SNR', () => {
    const a = alphasCumprod();
    expect(a[999]).toBe(0);
    expect(a[0]).toBeCloseTo(1 - 0.00085, 6);
  });

  it('a perfect v prediction recovers x0 in one step to t = 0', () => {
    const d = createDdim(1);
    const acp = alphasCumprod();
    const t = d.timesteps[0]!;
    const x0 = Float32Array.from([0.5, -1, 2]);
    const eps = Float32Array.from([1, 0.3, -0.7]);
    const sa = Math.sqrt(acp[t]!);
    const sb = Math.sqrt(1 - acp[t]!);
    const xt = x0.map((v, i) => sa * v + sb * eps[i]!);
    const v = x0.map((x, i) => sa * eps[i]! - sb * x);
    const out = d.step(v, 0, xt);
    out.forEach((o, i) => expect(o).toBeCloseTo(x0[i]!, 5));
  });

  it('guidance mixes cond and uncond', () => {
    expect(Array.from(guide(Float32Array.from([2]), Float32Array.from([1]), 3))).toEqual([4]);
  });
});

describe('uploads', () => {
  it('reads text embeddings (1, L, D) or (L, D) and identity tensors as the fixtures name them', async () => {
    const t = randomTensor(1, 't', [4, 32]);
    expect(parseTextUpload(writeSafetensors({ whatever: t }), 'a.safetensors', tiny).shape).toEqual([1, 4, 32]);
    expect(() => parseTextUpload(writeSafetensors({ a: t, b: t }), 'a.safetensors', tiny)).toThrow(
      /no tensor named encoder_hidden_states/,
    );
    expect(() =>
      parseTextUpload(
        writeSafetensors({ encoder_hidden_states: randomTensor(1, 't', [1, 17, 32]) }),
        'a.safetensors',
        tiny,
      ),
    ).toThrow(/text length 17 is outside 1..16/);
    const id = {
      id_cond: randomTensor(1, 'c', [1, 64]),
      'id_vit_hidden.0': randomTensor(1, 'v0', [1, 3, 64]),
      'id_vit_hidden.1': randomTensor(1, 'v1', [1, 3, 64]),
    };
    const parsed = parseIdentityUpload(writeSafetensors(id), 'id.safetensors', face);
    expect(parsed.idCond.shape).toEqual([1, 64]);
    expect(parsed.idVitHidden.map((x) => x.shape)).toEqual([
      [1, 3, 64],
      [1, 3, 64],
    ]);
    expect(() => parseIdentityUpload(writeSafetensors({ id_cond: id.id_cond }), 'id.safetensors', face)).toThrow(
      /id_vit_hidden.0 \(the config has LFE_num_scale = 2\)/,
    );
  });
});

describe('latent view', () => {
  it('projects channels to RGB with a fixed matrix and gives per-channel stats', () => {
    expect(rgbProjection(4)).toHaveLength(12);
    const shape = [1, 2, 4, 2, 3];
    const data = Float32Array.from({ length: 48 }, (_, i) => (i % 4) - 1.5);
    const px = frameToRgba(data, shape, 1);
    expect(px).toHaveLength(2 * 3 * 4);
    expect(px[3]).toBe(255);
    expect(frameToRgba(new Float32Array(48), shape, 0)[0]).toBe(128);
    const st = channelStats(data, shape);
    expect(st).toHaveLength(4);
    expect(st[0]!.min).toBeLessThanOrEqual(st[0]!.mean);
    // what the worker sends the page: every frame drawn, and the same statistics
    const view = latentView(data, shape);
    expect(view.frames).toEqual([frameToRgba(data, shape, 0), px]);
    expect(view.stats).toEqual(st);
  });
});

describe('checkpoint headers', () => {
  it('summarizes safetensors headers and rejects bad entries', () => {
    const header = (json: string, file: string) =>
      parseSafetensorsHeader(new TextEncoder().encode(json), 2 ** 40, file);
    const s = summarizeHeader(
      header(
        JSON.stringify({
          __metadata__: { a: 'b' },
          w: { dtype: 'F16', shape: [2, 3], data_offsets: [0, 12] },
          b: { dtype: 'F32', shape: [3], data_offsets: [12, 24] },
        }),
        'x',
      ),
    );
    expect(s).toEqual({ tensors: 2, params: 9, dtypes: { F16: 6, F32: 3 } });
    expect(() => summarizeHeader(header('{"w":{"dtype":"Q4","shape":[1]}}', 'x.safetensors'))).toThrow(
      /x.safetensors: tensor "w"/,
    );
  });
});

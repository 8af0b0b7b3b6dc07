import { describe, expect, it } from 'vitest';
import { parseConfig } from '../graph/config.ts';
import { CONSISID_PREVIEW_S_CONFIG, CONSISID_TINY_CONFIG } from '../models/consisid/demo-checkpoints.ts';
import type { ForwardArgs } from '../models/consisid/forward-inputs.ts';
import type { HostTensor } from '../io/tensor.ts';
import { writeSafetensors } from '../io/safetensors/write.ts';
import { randomTensor } from './inputs.ts';
import { latentView, summarize } from './latent-view.ts';
import { runPreview } from './run-preview.ts';
import type { PreviewRequest, StepFrame, Timings } from './run-types.ts';
import { runShownPreview, type ShownStep } from './shown-run.ts';
import { parseUpload } from './uploads.ts';

const tiny = parseConfig(CONSISID_TINY_CONFIG);
const timings = (): Timings => ({ loadMs: 0, graphBuildMs: [], sessionCreateMs: [], forwardMs: [], rotaryMs: 0 });

/** a stand-in transformer: its output is the latents' first out_channels scaled by the timestep, so every step differs */
const forward = async (args: ForwardArgs): Promise<HostTensor> => {
  const x = args.hidden_states as HostTensor & { data: Float32Array };
  const [b = 1, f = 1, , h = 1, w = 1] = x.shape;
  const c = tiny.out_channels;
  const data = new Float32Array(b * f * c * h * w).map((_, i) => x.data[i]! * (1 - Number(args.timestep) / 2000));
  return { dtype: 'float32', shape: [b, f, c, h, w], data };
};

describe('a run as the page shows it', () => {
  it('is runPreview with each step and the output drawn and summed up', async () => {
    const spec = { seed: 3, frames: 2, height: 4, width: 4, textLength: 3, timestep: 500, identity: false };
    const req: PreviewRequest = { spec, mode: 'denoise', steps: 3, guidance: 2, uploads: {} };
    const steps: StepFrame[] = [];
    const plain = await runPreview(tiny, req, timings(), {
      forward,
      stage: () => undefined,
      step: (s) => steps.push(s),
    });
    const shown: ShownStep[] = [];
    const run = await runShownPreview(tiny, req, timings(), {
      forward,
      stage: () => undefined,
      step: (s) => shown.push(s),
    });
    expect(run.sample).toEqual(plain.sample);
    expect(run.readback).toEqual(plain.readback);
    expect(run.view).toEqual(latentView(plain.sample, plain.shape));
    expect(run.summary).toEqual(summarize(plain.shape, plain.sample));
    expect(shown).toHaveLength(3);
    shown.forEach((s, i) => {
      const { latents, ...frame } = steps[i]!;
      expect(s).toEqual({ ...frame, view: latentView(latents!, frame.shape) });
      expect(s).not.toHaveProperty('latents');
    });
  });
});

describe('an upload', () => {
  it('is the text embeddings or the identity tensors, as its kind says, checked against the config', () => {
    const text = randomTensor(1, 't', [1, 4, 32]);
    expect(parseUpload(writeSafetensors({ encoder_hidden_states: text }), 'a.safetensors', 'text', tiny)).toEqual({
      text,
    });
    const face = parseConfig(CONSISID_PREVIEW_S_CONFIG);
    const id = {
      id_cond: randomTensor(1, 'c', [1, 64]),
      'id_vit_hidden.0': randomTensor(1, 'v0', [1, 3, 64]),
      'id_vit_hidden.1': randomTensor(1, 'v1', [1, 3, 64]),
    };
    expect(parseUpload(writeSafetensors(id), 'id.safetensors', 'identity', face)).toEqual({
      idCond: id.id_cond,
      idVitHidden: [id['id_vit_hidden.0'], id['id_vit_hidden.1']],
    });
    // a text file given as identity names what it lacks
    expect(() =>
      parseUpload(writeSafetensors({ encoder_hidden_states: text }), 'a.safetensors', 'identity', face),
    ).toThrow(/a.safetensors: no tensor named id_cond/);
  });
});

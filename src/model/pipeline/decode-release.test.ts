// A run, a decode beside or after releasing the transformer's sessions, and the next run, as the
// preview's model worker makes them: the model stays loaded and gives the same sample again.
import { afterAll, describe, expect, it } from 'vitest';
import { ConsisIDTransformer3DModel, nodeEnvironment } from '../node.ts';
import { consisidTinyFiles } from '../models/consisid/demo-checkpoints.ts';
import { memorySource } from '../io/memory-source.ts';
import type { StageEvent } from '../runtime/events.ts';
import { decodePreview } from './decode-preview.ts';
import { previewArgs } from './run-preview.ts';
import { defaultSpec } from '../graph/input-spec.ts';
import type { TransformerFit } from './decode-beside.ts';

const files = consisidTinyFiles();
const models: ConsisIDTransformer3DModel[] = [];
afterAll(async () => {
  for (const m of models) await m.release();
});

async function tiny() {
  const m = await ConsisIDTransformer3DModel.fromPretrained('consisid-tiny', {
    source: memorySource(files, 'transformer'),
    environment: nodeEnvironment,
    device: 'cpu',
    maxSessions: 1,
  });
  models.push(m);
  const { args } = previewArgs(m.config, {
    spec: defaultSpec(m.config),
    mode: 'forward',
    steps: 1,
    guidance: 1,
    uploads: {},
  });
  /** one forward, and the stages it went through */
  const run = async () => {
    const stages: string[] = [];
    const onStage = (e: StageEvent) => void (e.state === 'end' && stages.push(e.stage));
    const { sample } = await m.forward({ ...args, return_dict: true }, { onStage });
    return { sample: sample.data as Float32Array, stages, dims: sample.shape };
  };
  return { m, run };
}

/** the fit of a transformer holding `heapBytes` on the CPU (the page's WASM figure) */
const fitOf = (heapBytes: number): TransformerFit => ({ device: 'cpu', weights: 'float32', gpuBytes: null, heapBytes });

async function decodeBeside(
  m: ConsisIDTransformer3DModel,
  latents: { data: Float32Array; dims: number[] },
  fit: TransformerFit,
  budgetBytes: number,
) {
  let released = 0;
  const clip = await decodePreview(latents, {
    source: memorySource(files, 'vae'),
    environment: nodeEnvironment,
    device: 'cpu',
    threads: 1,
    budgetBytes,
    transformer: { loaded: m, fit, onRelease: () => released++ },
  });
  return { clip, released };
}

describe('a decode beside the loaded transformer', () => {
  it('releases its sessions where the decode does not fit beside them; the next run makes them again, same sample', async () => {
    const { m, run } = await tiny();
    const first = await run();
    expect(first.stages).toContain('session');
    const latents = { data: first.sample, dims: first.dims };
    // a budget the decode fits alone but not beside a transformer holding all of it
    const { clip, released } = await decodeBeside(m, latents, fitOf(1.4e9), 1.4e9);
    expect(released).toBe(1);
    expect(clip.frames.length).toBe(8);
    const again = await run();
    expect(again.stages).toContain('session');
    expect(again.sample).toEqual(first.sample);
  });

  it('keeps them where the decode fits beside: the next run only runs', async () => {
    const { m, run } = await tiny();
    const first = await run();
    const { clip, released } = await decodeBeside(m, { data: first.sample, dims: first.dims }, fitOf(1e6), 1.4e9);
    expect(released).toBe(0);
    expect(clip.frames.length).toBe(8);
    const again = await run();
    expect(again.stages).toEqual(['forward']);
    expect(again.sample).toEqual(first.sample);
  });
});

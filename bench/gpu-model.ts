// The one place `npm run bench -- gpu` builds the model it measures, and the one check of what the
// whole-graph model cannot hold. The segmented model, the streaming loader and GPU-resident
// latents replace these two functions when they land; nothing else in the bench builds a model.
import type { ConsisIDConfig } from '../src/model/config.ts';
import { ConsisIDTransformer3DModel } from '../src/model/consisid-model.ts';
import type { ForwardArgs } from '../src/model/forward-inputs.ts';
import type { GraphShape } from '../src/model/graph/transformer.ts';
import { loadCheckpoint } from '../src/model/loader/load-checkpoint.ts';
import { localSource } from '../src/model/loader/local-source.ts';
import { planPrecisions, WASM_HEAP_BYTES } from '../src/model/plan.ts';
import { computeDtypeFor, type WeightPrecision } from '../src/model/precision.ts';
import { nodeBackend } from '../src/model/runtime/node.ts';
import { nodeWebgpuBackend } from '../src/model/runtime/node-webgpu.ts';
import type { HostTensor } from '../src/model/tensor.ts';

export type BenchDevice = 'cpu' | 'webgpu';

export interface BenchModel {
  /** the session(s) for the shape of `args`, before any forward */
  session(args: ForwardArgs): Promise<void>;
  /** one forward pass; the sample as the host sees it */
  forward(args: ForwardArgs): Promise<HostTensor>;
  /** how attention runs on this adapter (fused or decomposed) */
  attention(): Promise<string>;
  release(): Promise<void>;
}

/** the checkpoint folder as the preview runs it: onnxruntime-web's native WebGPU EP, or onnxruntime-node CPU (the reference) */
export async function benchModel(dir: string, device: BenchDevice, weights: WeightPrecision): Promise<BenchModel> {
  const backend = device === 'cpu' ? nodeBackend() : await nodeWebgpuBackend();
  const model = ConsisIDTransformer3DModel.fromCheckpoint(await loadCheckpoint(localSource(dir)), {
    backend,
    device,
    weights,
    dtype: computeDtypeFor(weights, undefined),
  });
  return {
    session: async (args) => void (await model.session(args)),
    forward: async (args) => {
      const out = await model.forward(args);
      return 'sample' in out ? out.sample : out[0];
    },
    attention: async () => (device === 'webgpu' ? ((await backend.webgpuAttention?.()) ?? 'fused') : 'fused'),
    release: () => model.release(),
  };
}

const gib = (b: number) => `${(b / 2 ** 30).toFixed(2)} GiB`;

/**
 * Per precision, why `benchModel` cannot run this config on WebGPU, or null: one session takes
 * all the weights through onnxruntime-web's 32-bit wasm heap, so past 4 GiB it fails after minutes
 * of generation and loading. Segments (one session per group of blocks) lift this.
 */
export function benchModelRefusals(config: ConsisIDConfig, shape: GraphShape): Map<WeightPrecision, string | null> {
  return new Map(
    planPrecisions(config, shape, 'webgpu').map((p) => [
      p.weights,
      p.weightBytes <= WASM_HEAP_BYTES
        ? null
        : `${gib(p.weightBytes)} of ${p.weights} weights in one session pass the ${gib(WASM_HEAP_BYTES)} wasm heap: needs the segmented model`,
    ]),
  );
}

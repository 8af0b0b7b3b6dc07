// The one place `npm run bench -- gpu` builds the model it measures, and the one check of what it
// cannot hold. On WebGPU the model runs as the page runs it: segments planned from the adapter's
// own limits (docs/model-segments.md); nothing else in the bench builds a model.
import type { ConsisIDConfig } from '../src/model/graph/config.ts';
import { ConsisIDTransformer3DModel } from '../src/model/models/consisid/consisid-model.ts';
import type { ForwardArgs } from '../src/model/models/consisid/forward-inputs.ts';
import type { GraphShape } from '../src/model/graph/transformer.ts';
import { loadCheckpoint } from '../src/model/models/consisid/load-checkpoint.ts';
import { localSource } from '../src/model/io/local-source.ts';
import type { WebGpuLimits } from '../src/model/plan/plan.ts';
import { planSegments, SegmentPlanError } from '../src/model/plan/segment-plan.ts';
import { WEIGHT_PRECISIONS } from '../src/model/plan/precision.ts';
import { computeDtypeFor, type WeightPrecision } from '../src/model/plan/precision.ts';
import { nodeBackend } from '../src/model/runtime/node.ts';
import { nodeWebgpuBackend } from '../src/model/runtime/node-webgpu.ts';
import type { HostTensor } from '../src/model/io/tensor.ts';

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
  const segments =
    device === 'webgpu' ? { segments: 'auto' as const, segmentLimits: { gpu: await adapterLimits() } } : {};
  const model = ConsisIDTransformer3DModel.fromCheckpoint(await loadCheckpoint(localSource(dir)), {
    backend,
    device,
    weights,
    dtype: computeDtypeFor(weights, undefined),
    ...segments,
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

/** what the adapter in `navigator.gpu` binds (Dawn's, in the bench's child) */
async function adapterLimits(): Promise<WebGpuLimits> {
  const gpu = (navigator as { gpu?: { requestAdapter(): Promise<{ limits: WebGpuLimits } | null> } }).gpu;
  const adapter = await gpu?.requestAdapter();
  if (!adapter) throw new Error('no WebGPU adapter in navigator.gpu');
  return {
    maxBufferSize: adapter.limits.maxBufferSize,
    maxStorageBufferBindingSize: adapter.limits.maxStorageBufferBindingSize,
  };
}

/** what the bench plans with before a child has an adapter: a discrete GPU's 2 GiB bindings (the H200's, issue 23) */
export const PLANNING_LIMITS: WebGpuLimits = { maxBufferSize: 2 ** 40, maxStorageBufferBindingSize: 2 ** 31 - 4 };

/**
 * Per precision, why `benchModel` cannot run this config on WebGPU, or null: no segment plan fits
 * (a weight buffer over the adapter's binding, or one block's weights over the heap budget).
 */
export function benchModelRefusals(
  config: ConsisIDConfig,
  shape: GraphShape,
  limits: WebGpuLimits = PLANNING_LIMITS,
): Map<WeightPrecision, string | null> {
  return new Map(
    WEIGHT_PRECISIONS.map((weights) => {
      try {
        planSegments(config, shape, { device: 'webgpu', weights, segments: 'auto', limits });
        return [weights, null];
      } catch (e) {
        if (e instanceof SegmentPlanError) return [weights, e.message];
        throw e;
      }
    }),
  );
}

// Fits whose output is pinned (fit-expected.json, captured from the planner that built each
// precision's whole graph and then its segments apart): the released ConsisID and small configs,
// on WebGPU adapters of both attention kernels and heap budgets that give one or many segments, and on WASM.
import { parseConfig, type ConsisIDConfig } from '../graph/config.ts';
import { CONSISID_PREVIEW_S_CONFIG, CONSISID_TINY_CONFIG } from '../models/consisid/demo-checkpoints.ts';
import { CONSISID_CONFIG } from '../models/consisid/named-configs.ts';
import type { AdapterCaps } from '../plan/fit.ts';
import type { GraphShape } from '../graph/transformer.ts';
import type { Device } from '../runtime/types.ts';

export interface FitCase {
  name: string;
  config: ConsisIDConfig;
  shape: GraphShape;
  device: Device;
  adapter: AdapterCaps | null;
  heapBudget?: number;
}

/** a GPU with 2 GiB bindings (NVIDIA under Vulkan) */
export const roomy: AdapterCaps = {
  limits: { maxBufferSize: 2 ** 40, maxStorageBufferBindingSize: 2 ** 31 - 4 },
  shaderF16: true,
  subgroups: true,
  subgroupMinSize: 32,
};
const swiftshader: AdapterCaps = {
  limits: { maxBufferSize: 2 ** 30, maxStorageBufferBindingSize: 2 ** 27 },
  shaderF16: false,
  subgroups: true,
  subgroupMinSize: 4,
};

/** the page's first latent size (defaultSpec: 2 frames of 16 x 16, 16 text tokens, 577 ViT tokens a scale) */
const pageShape = (c: ConsisIDConfig): GraphShape => {
  const face = c.is_train_face ? { idBatch: 1, vitLengths: Array<number>(c.LFE_num_scale).fill(577) } : null;
  const rotary = c.use_rotary_positional_embeddings;
  return { batch: 1, frames: 2, height: 16, width: 16, textLength: 16, timestepCond: false, rotary, face };
};
const small: GraphShape = { ...pageShape(parseConfig(CONSISID_TINY_CONFIG)), height: 4, width: 4, textLength: 8 };

const released = parseConfig(CONSISID_CONFIG);
const tiny = parseConfig({ ...CONSISID_TINY_CONFIG, num_layers: 5 });
const previewS = parseConfig(CONSISID_PREVIEW_S_CONFIG);

export const FIT_CASES: FitCase[] = [
  { name: 'released, webgpu', config: released, shape: pageShape(released), device: 'webgpu', adapter: roomy },
  { name: 'released, wasm', config: released, shape: pageShape(released), device: 'wasm', adapter: null },
  {
    name: 'preview-s, swiftshader',
    config: previewS,
    shape: pageShape(previewS),
    device: 'webgpu',
    adapter: swiftshader,
  },
  { name: 'preview-s, wasm', config: previewS, shape: pageShape(previewS), device: 'wasm', adapter: null },
  ...[undefined, 2 ** 20, 2 ** 18, 2 ** 16].map((heapBudget) => ({
    name: `tiny x 5, webgpu, heap budget ${heapBudget ?? 'default'}`,
    config: tiny,
    shape: small,
    device: 'webgpu' as const,
    adapter: roomy,
    heapBudget,
  })),
  {
    name: 'tiny x 5, swiftshader',
    config: tiny,
    shape: small,
    device: 'webgpu',
    adapter: swiftshader,
    heapBudget: 2 ** 19,
  },
  { name: 'tiny x 5, no f16', config: tiny, shape: small, device: 'webgpu', adapter: { ...roomy, shaderF16: false } },
];

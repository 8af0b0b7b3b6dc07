// The named configs of `npm run bench -- gpu`: the model, the latent size of one forward, the
// checkpoint as generated, each process's time limit, and whether the CPU reference is worth its time.
import type { ConsisIDConfigInput } from '../src/model/graph/config.ts';
import { CONSISID_PREVIEW_S_CONFIG } from '../src/model/models/consisid/demo-checkpoints.ts';
import { CONSISID_CONFIG, PREVIEW_S_CONFIG } from '../src/model/models/consisid/named-configs.ts';
import type { WeightDtype } from '../src/model/models/consisid/random-weights.ts';

export interface GpuBenchConfig {
  config: ConsisIDConfigInput;
  /** `consisid --shape` keys: the latents, text and ViT tokens of one forward */
  shape: string;
  /** the generated checkpoint's dtype and safetensors shards */
  dtype: WeightDtype;
  shards: number;
  /** every process of the config (the CPU reference, each precision) is stopped after this many seconds */
  limitS: number;
  /** onnxruntime-node CPU float32 on the same checkpoint, or why it is skipped */
  cpuReference: true | string;
  /** run by default on SwiftShader (no GPU): what finishes there within minutes on 2 cores */
  cpuAdapter: boolean;
}

const SMALL_FACE = {
  LFE_id_dim: 64,
  LFE_vit_dim: 64,
  LFE_depth: 2,
  LFE_dim_head: 32,
  LFE_num_heads: 2,
  LFE_num_id_token: 2,
  LFE_num_querie: 8,
  LFE_ff_mult: 2,
  LFE_num_scale: 2,
  cross_attn_dim_head: 32,
  cross_attn_num_heads: 2,
};

/** the real width: 48 heads x 64, the identity module's 2048 outputs, 2 of the 42 layers */
const FULLWIDTH_2 = {
  ...PREVIEW_S_CONFIG,
  num_attention_heads: 48,
  num_layers: 2,
  LFE_output_dim: 2048,
  sample_width: 90,
  sample_height: 60,
  sample_frames: 49,
};

const PREVIEW_LATENTS = 'frames=13,height=30,width=44,text=226,vit=577';
const FULL_LATENTS = 'frames=13,height=60,width=90,text=226,vit=577';

export const GPU_CONFIGS: Readonly<Record<string, GpuBenchConfig>> = {
  // a smoke test SwiftShader finishes in minutes (its pipeline compilation is most of it): 2 heads x 64, 2 layers
  small: {
    config: {
      ...SMALL_FACE,
      num_attention_heads: 2,
      attention_head_dim: 64,
      num_layers: 2,
      in_channels: 16,
      out_channels: 16,
      time_embed_dim: 64,
      text_embed_dim: 256,
      sample_width: 8,
      sample_height: 8,
      sample_frames: 5,
      max_text_seq_length: 16,
      is_train_face: true,
      LFE_output_dim: 85,
      cross_attn_interval: 2,
    },
    shape: 'frames=2,height=8,width=8,text=16,vit=17',
    dtype: 'float32',
    shards: 1,
    limitS: 900,
    cpuReference: true,
    cpuAdapter: true,
  },
  // the preview's target size: 8 heads x 64, 8 layers, identity module; 4 latent frames of 30 x 44
  'preview-s': {
    config: PREVIEW_S_CONFIG,
    shape: 'frames=4,height=30,width=44,text=226,vit=577',
    dtype: 'float32',
    shards: 1,
    limitS: 1800,
    cpuReference: true,
    cpuAdapter: false,
  },
  // the real width at the preview's latent size: 13 x 30 x 44 latents, 4,516 tokens
  'fullwidth-2': {
    config: FULLWIDTH_2,
    shape: PREVIEW_LATENTS,
    dtype: 'bfloat16',
    shards: 1,
    limitS: 900,
    cpuReference: true,
    cpuAdapter: false,
  },
  // the real width at full resolution: 13 x 60 x 90 latents, 17,776 tokens
  'fullwidth-2-full': {
    config: FULLWIDTH_2,
    shape: FULL_LATENTS,
    dtype: 'bfloat16',
    shards: 1,
    limitS: 900,
    cpuReference:
      'skipped: the CPU graph keeps the attention probabilities, 48 x 17,776^2 floats (56.5 GiB) at this size; the float32 WebGPU run is the reference of the others',
    cpuAdapter: false,
  },
  // all 42 layers as released, generated weights in bfloat16 shards as published; the learned
  // positional embedding is sized to the preview's latents (the released one is for 60 x 90)
  consisid: {
    config: { ...CONSISID_CONFIG, sample_width: 44, sample_height: 30 },
    shape: PREVIEW_LATENTS,
    dtype: 'bfloat16',
    shards: 3,
    limitS: 1800,
    cpuReference:
      'skipped: 23 GiB of float32 weights and about a minute a forward on 16 cores (21 x fullwidth-2); the float32 WebGPU run is the reference of the others',
    cpuAdapter: false,
  },
  // the page's demo preview-s (4 layers of 4 x 16 heads, identity module, rotary) at the size of
  // src/model/precision-family.test.ts: each precision's error on each checkpoint family (GPU_BENCH_FAMILY)
  'demo-preview-s': {
    config: CONSISID_PREVIEW_S_CONFIG,
    shape: 'frames=2,height=8,width=8,text=8,vit=10',
    dtype: 'float32',
    shards: 1,
    limitS: 900,
    cpuReference: true,
    cpuAdapter: false,
  },
};

export const GPU_CONFIG_NAMES = Object.keys(GPU_CONFIGS);
export const CPU_ADAPTER_CONFIG_NAMES = GPU_CONFIG_NAMES.filter((n) => GPU_CONFIGS[n]!.cpuAdapter);
export const GPU_ADAPTER_CONFIG_NAMES = GPU_CONFIG_NAMES.filter((n) => n !== 'small');

/** the config by name, or an error naming the choices */
export function gpuConfig(name: string): GpuBenchConfig {
  const c = GPU_CONFIGS[name];
  if (!c) throw new Error(`GPU_BENCH_CONFIGS: ${name} is none of ${GPU_CONFIG_NAMES.join(', ')}`);
  return c;
}

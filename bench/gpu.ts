// `npm run bench -- gpu`: the preview's WebGPU path (onnxruntime-web's native WebGPU EP, the
// model's own graph and attention choice) headless in Node on whatever adapter Dawn finds
// (SwiftShader without a GPU), for named configs; each run's error against onnxruntime-node CPU
// float32 on the same checkpoint and inputs. Every run is its own process under a time limit.
//   GPU_BENCH_CONFIGS=preview-s,fullwidth-2 (default; also `small`), GPU_BENCH_WEIGHTS=float32,int4,
//   GPU_BENCH_RUNS=3 warm forwards, GPU_BENCH_RUN_TIMEOUT_S=600, GPU_BENCH_SWIFTSHADER=1 (Chromium's Vulkan ICD)
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { figure, median, type Figure } from './figure.ts';
import type { GpuChildReport } from './gpu-child.ts';
import { parseConfig, type ConsisIDConfigInput } from '../src/model/config.ts';
import { writeCheckpointFolder } from '../src/model/checkpoint-folder.ts';
import { randomInputs } from '../src/model/cli/generate-command.ts';
import { parseShapeSpec } from '../src/model/cli/shape-spec.ts';
import { PREVIEW_S_CONFIG } from '../src/model/named-configs.ts';
import { writeSafetensors } from '../src/model/safetensors/write.ts';
import { relativeError } from '../src/model/tensor.ts';
import { WEIGHT_PRECISIONS, type WeightPrecision } from '../src/model/precision.ts';

const BENCH = 'gpu';
const root = path.resolve(import.meta.dirname, '..');
const run = promisify(execFile);
const SWIFTSHADER = {
  VK_DRIVER_FILES: '/usr/lib/chromium/vk_swiftshader_icd.json',
  LD_LIBRARY_PATH: '/usr/lib/chromium',
};

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

/** configs by name: the model config and the latent/text/ViT sizes of one forward */
export const GPU_CONFIGS: Record<string, { config: ConsisIDConfigInput; shape: string }> = {
  // the preview's target size: 8 heads x 64, 8 layers, identity module; 4 latent frames of 30 x 44
  'preview-s': { config: PREVIEW_S_CONFIG, shape: 'frames=4,height=30,width=44,text=226,vit=577' },
  // the real width (48 heads x 64, LFE_output_dim 2048), 2 of the 42 layers, at a small latent size
  'fullwidth-2': {
    config: { ...PREVIEW_S_CONFIG, num_attention_heads: 48, num_layers: 2, LFE_output_dim: 2048 },
    shape: 'frames=2,height=16,width=16,text=32,vit=33',
  },
  // a smoke test that SwiftShader runs in seconds: 2 heads x 64, 2 layers
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
  },
};

const list = (v: string | undefined, d: string) => (v ?? d).split(',').filter(Boolean);

async function child(dir: string, device: 'cpu' | 'webgpu', weights: WeightPrecision) {
  const out = path.join(dir, `sample-${device}-${weights}.f32`);
  const args = ['--import', 'tsx', path.join(root, 'bench/gpu-child.ts'), '--dir', path.join(dir, 'checkpoint')];
  args.push('--inputs', path.join(dir, 'inputs.safetensors'), '--device', device, '--weights', weights);
  args.push('--runs', process.env.GPU_BENCH_RUNS ?? '3', '--out', out);
  const env = { ...process.env, ...(process.env.GPU_BENCH_SWIFTSHADER === '1' ? SWIFTSHADER : {}) };
  const timeout = Number(process.env.GPU_BENCH_RUN_TIMEOUT_S ?? 600) * 1000;
  const { stdout } = await run(process.execPath, args, { cwd: root, env, timeout, maxBuffer: 2 ** 24 });
  const bytes = await readFile(out);
  const report = JSON.parse(stdout.trim().split('\n').at(-1)!) as GpuChildReport;
  return { report, sample: new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4) };
}

/** what stopped a run: its time limit (and the stage it had reached) or its last line of stderr */
function failure(e: unknown): string {
  const x = e as { killed?: boolean; stderr?: string; message?: string };
  const lines = (x.stderr ?? '').split('\n').filter((l) => l.trim() && !l.startsWith('npm warn'));
  const stage = lines.filter((l) => l.startsWith('stage: ')).at(-1);
  if (x.killed)
    return `stopped at its ${process.env.GPU_BENCH_RUN_TIMEOUT_S ?? 600} s limit during ${stage ?? 'start-up'}`;
  return (lines.at(-1) ?? x.message ?? String(e)).slice(0, 300);
}

async function benchConfig(name: string, figures: Figure[]): Promise<void> {
  const c = GPU_CONFIGS[name];
  if (!c) throw new Error(`GPU_BENCH_CONFIGS: ${name} is none of ${Object.keys(GPU_CONFIGS).join(', ')}`);
  const config = parseConfig(c.config);
  const dir = await mkdtemp(path.join(tmpdir(), `bench-gpu-${name}-`));
  try {
    await writeCheckpointFolder(path.join(dir, 'checkpoint'), { ...c.config }, config, { seed: 42 });
    const inputs = randomInputs(config, parseShapeSpec(c.shape, config), 43);
    await writeFile(path.join(dir, 'inputs.safetensors'), writeSafetensors(inputs, { format: 'pt' }));
    const ref = await child(dir, 'cpu', 'float32');
    figures.push(figure(BENCH, `${name} cpu float32 warm forward`, median(ref.report.warmMs), 'ms'));
    for (const weights of list(process.env.GPU_BENCH_WEIGHTS, 'float32,int4')) {
      if (!WEIGHT_PRECISIONS.includes(weights as WeightPrecision)) throw new Error(`GPU_BENCH_WEIGHTS: ${weights}`);
      const label = `${name} webgpu ${weights}`;
      try {
        const { report: r, sample } = await child(dir, 'webgpu', weights as WeightPrecision);
        const a = r.adapter!;
        const adapter = `${a.vendor}/${a.architecture}${a.fallback ? ' (fallback)' : ''}, subgroups ${a.subgroupMinSize}, f16 ${a.shaderF16}`;
        figures.push(
          figure(BENCH, `${label} adapter`, adapter, ''),
          figure(BENCH, `${label} attention`, r.attention, ''),
          figure(BENCH, `${label} session`, r.sessionMs, 'ms'),
          figure(BENCH, `${label} first forward`, r.firstMs, 'ms'),
          figure(BENCH, `${label} warm forward (median)`, median(r.warmMs), 'ms'),
          figure(BENCH, `${label} vs cpu float32 warm`, median(r.warmMs) / median(ref.report.warmMs), 'x'),
          figure(BENCH, `${label} peak JS + wasm heap`, r.peakJsWasmBytes / 2 ** 20, 'MiB', { op: '<', value: 1536 }),
          figure(BENCH, `${label} peak RSS`, r.peakRssBytes / 2 ** 20, 'MiB'),
          figure(BENCH, `${label} max rel error vs cpu float32`, relativeError(sample, ref.sample), '', {
            op: '<=',
            value: weights === 'float32' ? 1e-4 : 3e-2,
          }),
        );
      } catch (e) {
        figures.push({
          bench: BENCH,
          metric: `${label} error`,
          value: failure(e),
          unit: '',
          target: null,
          ok: false,
        });
      }
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export default async function gpuBench(): Promise<Figure[]> {
  const figures: Figure[] = [];
  for (const name of list(process.env.GPU_BENCH_CONFIGS, 'preview-s,fullwidth-2')) await benchConfig(name, figures);
  return figures;
}

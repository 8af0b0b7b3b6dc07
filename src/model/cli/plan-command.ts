// `consisid plan`: what a config needs (weights per precision, activation peak, FLOPs) and whether
// it fits a browser, from the graph the model builds; no weight is read.
import { ConsisIDTransformer3DModel } from '../models/consisid/consisid-model.ts';
import { nodeEnvironment } from '../node.ts';
import { parseConfig, type ConsisIDConfig } from '../graph/config.ts';
import { NAMED_CONFIGS } from '../models/consisid/named-configs.ts';
import { browserFit, planPrecisions, WEBGPU_DEFAULT_LIMITS, type WebGpuLimits } from '../plan/plan.ts';
import { WEIGHT_PRECISIONS } from '../plan/precision.ts';
import { formatBytes } from '../plan/format-bytes.ts';
import {
  planSegments,
  SEGMENT_HEAP_BUDGET,
  SegmentPlanError,
  type PlannedSegment,
  type SegmentChoice,
} from '../plan/segment-plan.ts';
import type { GraphShape } from '../graph/transformer.ts';
import { UsageError, type Command, type Flags } from './flags.ts';
import { checkModelArg, modelOptions, SOURCE_FLAGS } from './model-options.ts';
import { parseShapeSpec, SHAPE_FLAG } from './shape-spec.ts';

const size = formatBytes;
const flops = (f: number): string => (f >= 1e12 ? `${(f / 1e12).toFixed(1)} TFLOP` : `${(f / 1e9).toFixed(1)} GFLOP`);

/** a config name, or a checkpoint folder or repo: only its config.json is read */
async function planConfig(
  model: string,
  flags: Parameters<typeof modelOptions>[0],
  log: (l: string) => void,
): Promise<ConsisIDConfig> {
  const named = NAMED_CONFIGS[model];
  if (named) return parseConfig(named, model);
  const opts = modelOptions(flags, log);
  checkModelArg(model, opts);
  const source = await ConsisIDTransformer3DModel.resolveSource(model, opts, nodeEnvironment);
  const bytes = await source.read('config.json');
  if (!bytes)
    throw new UsageError(
      `${source.describe('config.json')} not found (or name a config: ${Object.keys(NAMED_CONFIGS).join(', ')})`,
    );
  return parseConfig(JSON.parse(new TextDecoder().decode(bytes)), source.describe('config.json'));
}

function parseSegments(spec: string): SegmentChoice {
  if (spec === 'auto') return 'auto';
  if (!/^\d+$/.test(spec) || Number(spec) < 1)
    throw new UsageError(`--segments: use auto or a number of segments from 1, got "${spec}"`);
  return Number(spec);
}

function parseHeapBudget(spec: string | undefined): number {
  if (spec === undefined) return SEGMENT_HEAP_BUDGET;
  if (!/^\d+$/.test(spec) || Number(spec) < 1)
    throw new UsageError(`--heap-budget: use a number of bytes, got "${spec}"`);
  return Number(spec);
}

const describeSegment = (s: PlannedSegment): string =>
  `${s.to - s.from === 1 ? `block ${s.from}` : `blocks ${s.from}-${s.to - 1}`} ${size(s.weightBytes)} (largest ${size(s.largestWeight.bytes)})`;

/** per precision, the WebGPU segments, or why they do not fit */
function logSegments(
  config: ConsisIDConfig,
  shape: GraphShape,
  choice: SegmentChoice,
  limits: WebGpuLimits,
  heapBudget: number,
  log: (l: string) => void,
): void {
  log('');
  log(
    `segments on WebGPU (${choice === 'auto' ? 'as few as fit' : `${choice} of equal block counts`}; at most ${size(heapBudget)} of weights per segment, no weight buffer over ${size(Math.min(limits.maxBufferSize, limits.maxStorageBufferBindingSize))}):`,
  );
  for (const weights of WEIGHT_PRECISIONS) {
    try {
      const plan = planSegments(config, shape, { device: 'webgpu', weights, segments: choice, limits, heapBudget });
      log(`${weights.padEnd(10)} ${plan.segments.length} segment(s): ${plan.segments.map(describeSegment).join(', ')}`);
    } catch (e) {
      if (!(e instanceof SegmentPlanError) && !(e instanceof RangeError)) throw e;
      log(`${weights.padEnd(10)} refused: ${e.message}`);
    }
  }
}

function parseLimits(spec: string | undefined): WebGpuLimits {
  if (!spec) return WEBGPU_DEFAULT_LIMITS;
  const limits = { ...WEBGPU_DEFAULT_LIMITS };
  for (const part of spec.split(',')) {
    const [k, v] = part.split('=') as [string, string | undefined];
    if (!(k in limits) || !/^\d+$/.test(v ?? ''))
      throw new UsageError(
        `--gpu-limits: use maxBufferSize=<bytes>,maxStorageBufferBindingSize=<bytes>, got "${part}"`,
      );
    limits[k as keyof WebGpuLimits] = Number(v);
  }
  return limits;
}

const describeShape = (s: GraphShape): string =>
  `batch ${s.batch}, ${s.frames} latent frames of ${s.height}x${s.width}, ${s.textLength} text tokens${s.face ? `, ${s.face.vitLengths.length}x${s.face.vitLengths[0]} ViT tokens` : ''}`;

export const planCommand: Command = {
  name: 'plan',
  summary:
    'Prints what a config needs per precision (weights, activation peak, FLOPs) and whether a browser fits it; no weight is read.',
  flags: {
    model: {
      value: '<config name | dir | repo id>',
      required: true,
      help: `a config name (${Object.keys(NAMED_CONFIGS).join(', ')}), or a checkpoint folder or repository: only its config.json is read`,
    },
    ...SHAPE_FLAG,
    'gpu-limits': {
      value: 'maxBufferSize=<bytes>,maxStorageBufferBindingSize=<bytes>',
      help: "an adapter's WebGPU limits (default: the spec's, 128 / 256 MiB)",
    },
    segments: {
      value: 'auto|<n>',
      help: 'also split the transformer for WebGPU into sessions of consecutive blocks: as few as fit (auto) or n of equal block counts, per precision',
    },
    'heap-budget': {
      value: '<bytes>',
      help: `the most weight bytes one segment may pass through the page's memory at once (default ${SEGMENT_HEAP_BUDGET}, 1 GiB)`,
    },
    ...SOURCE_FLAGS,
  },
  notes: ['', 'Every precision is planned, for WebGPU and the CPU kernels alike: no --weights or --device.'],
  run: plan,
};

async function plan(flags: Flags, log: (line: string) => void): Promise<void> {
  const model = flags.need('model');
  const config = await planConfig(model, flags, log);
  const shape = parseShapeSpec(flags.get('shape'), config);
  const limits = parseLimits(flags.get('gpu-limits'));
  const segmentsSpec = flags.get('segments');
  const segments = segmentsSpec === undefined ? null : parseSegments(segmentsSpec);
  const heapBudget = parseHeapBudget(flags.get('heap-budget'));
  const wasm = planPrecisions(config, shape, 'wasm');
  const webgpu = planPrecisions(config, shape, 'webgpu');
  log(`plan for ${model}: ${describeShape(shape)}`);
  log(
    'precision  weights     activation peak  FLOPs / forward   largest buffer (WebGPU)                       WebGPU  WASM',
  );
  wasm.forEach((row, i) => {
    const gpu = webgpu[i]!;
    const fit = browserFit(gpu, row, limits);
    const largest = `${size(gpu.largestBuffer.bytes)} ${gpu.largestBuffer.name}`;
    log(
      `${row.weights.padEnd(10)} ${size(row.weightBytes).padEnd(11)} ${size(row.activationPeakBytes).padEnd(16)} ${flops(row.flops).padEnd(17)} ${largest.slice(0, 45).padEnd(45)} ${(fit.webgpu ? 'fits' : 'no').padEnd(7)} ${fit.wasm ? 'fits' : 'no'}`,
    );
    for (const r of fit.reasons) log(`             ${r}`);
  });
  log(
    `limits: WebGPU maxBufferSize ${size(limits.maxBufferSize)}, maxStorageBufferBindingSize ${size(limits.maxStorageBufferBindingSize)}${flags.get('gpu-limits') ? '' : " (the spec's defaults; --gpu-limits for an adapter's own)"}; WASM heap 4 GiB`,
  );
  log(
    'activation peak: run-time tensors alive at once, with the attention probabilities the CPU attention kernel keeps per attention node (none on WebGPU: flash attention)',
  );
  if (segments !== null) logSegments(config, shape, segments, limits, heapBudget, log);
}

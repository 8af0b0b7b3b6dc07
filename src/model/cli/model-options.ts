// The --model/--subfolder/--revision/--hub-url/--token/--device/--dtype options shared by commands:
// declared once here (name, value, help), read by modelOptions.
import { statSync } from 'node:fs';
import path from 'node:path';
import type { FromPretrainedOptions } from '../models/consisid/model-options.ts';
import { checkHubRepo, DEFAULT_HUB_URL } from '../io/hub-files.ts';
import type { Device } from '../runtime/types.ts';
import { UsageError, type Flags, type FlagSpecs } from './flags.ts';
import { computeDtypeFor, WEIGHT_PRECISIONS, type WeightPrecision } from '../plan/precision.ts';

/** the checkpoint to read (every command that reads one) */
export const MODEL_FLAG = {
  model: {
    value: '<dir | repo id>',
    required: true,
    help: 'a checkpoint folder (diffusers layout) or a hub repository id',
  },
} as const satisfies FlagSpecs;

/** where a repository's checkpoint is (every command that reads one) */
export const SOURCE_FLAGS = {
  subfolder: { value: '<path>', help: "the checkpoint's folder in the repository or folder, e.g. transformer" },
  revision: { value: '<rev>', help: 'the repository revision (default main)' },
  'hub-url': { value: '<URL>', help: `the hub to read the repository from (default ${DEFAULT_HUB_URL})` },
  token: { value: '<T>', help: 'a hub token for private repositories (default $HUB_TOKEN)' },
} as const satisfies FlagSpecs;

/** `--weights` and `--compare`'s values in a usage */
export const PRECISION_VALUE = WEIGHT_PRECISIONS.join('|');

/** how it runs (forward; export takes the first three: the ops it writes) */
export const RUN_FLAGS = {
  weights: {
    value: PRECISION_VALUE,
    help: 'how the large layers hold their weights (default float32; int8 and int4 are quantized at load)',
  },
  dtype: { value: 'float32|float16', help: 'the compute precision (default float32; float16 runs float16)' },
  device: { value: 'cpu|wasm', help: 'the onnxruntime provider (default cpu)' },
  threads: { value: 'n', help: "onnxruntime's intra-op threads (default: its own choice)" },
} as const satisfies FlagSpecs;

/** `devices`: what --device may name (forward runs on cpu or wasm; export may write WebGPU's ops) */
export function modelOptions(
  flags: Flags,
  log: (line: string) => void,
  devices: readonly Device[] = ['cpu', 'wasm'],
): FromPretrainedOptions {
  const device = flags.get('device') ?? 'cpu';
  if (!(devices as readonly string[]).includes(device))
    throw new UsageError(`--device must be ${devices.join(' or ')}, got ${device}`);
  const dtype = flags.get('dtype') ?? 'float32';
  if (dtype !== 'float32' && dtype !== 'float16')
    throw new UsageError(`--dtype must be float32 or float16, got ${dtype}`);
  const threads = positiveInt(flags, 'threads');
  const weights = weightPrecision(flags, 'weights') ?? 'float32';
  if (flags.get('dtype') !== undefined) {
    try {
      computeDtypeFor(weights, dtype);
    } catch {
      throw new UsageError(
        `--weights ${weights} and --dtype ${dtype} contradict each other: ${weights === 'float16' ? 'float16 weights run in float16' : `${weights} weights multiply float32 activations`}; drop --dtype`,
      );
    }
  }
  const hubUrl = flags.get('hub-url');
  if (hubUrl !== undefined && !/^https?:\/\/[^/]/.test(hubUrl))
    throw new UsageError(`--hub-url must be an http:// or https:// URL, got ${hubUrl}`);
  const seen = new Map<string, number>();
  const opts: FromPretrainedOptions = {
    device: device as Device,
    weights,
    ...(flags.get('dtype') === undefined ? {} : { dtype }),
    onProgress: (p) => {
      const step = p.total ? Math.floor((p.loaded / p.total) * 10) : -1;
      if (seen.get(p.file) === step) return;
      seen.set(p.file, step);
      if (p.total === null || p.loaded === p.total || step >= 0)
        log(
          `  ${p.file}: ${(p.loaded / 2 ** 20).toFixed(1)}${p.total ? ` / ${(p.total / 2 ** 20).toFixed(1)}` : ''} MiB`,
        );
    },
  };
  const token = flags.get('token') ?? process.env.HUB_TOKEN;
  for (const [k, v] of [
    ['subfolder', flags.get('subfolder')],
    ['revision', flags.get('revision')],
    ['hubUrl', flags.get('hub-url')],
    ['token', token],
  ] as const) {
    if (v !== undefined) opts[k] = v;
  }
  if (threads) opts.threads = threads;
  return opts;
}

/** the precision a run computes in: float32 weights with --dtype float16 are the float16 model */
export function effectivePrecision(opts: FromPretrainedOptions): WeightPrecision {
  const weights = opts.weights ?? 'float32';
  return weights === 'float32' && opts.dtype === 'float16' ? 'float16' : weights;
}

/**
 * --model without --hub-url is a local folder when there is one; anything else must be a hub
 * repository id, or the user meant a folder that is not there.
 */
export function checkModelArg(model: string, opts: FromPretrainedOptions): void {
  if (opts.hubUrl !== undefined) return;
  const isDir = (p: string) => statSync(p, { throwIfNoEntry: false })?.isDirectory() === true;
  if (isDir(model)) {
    const sub = opts.subfolder && path.join(model, opts.subfolder);
    if (sub && !isDir(sub)) throw new UsageError(`--subfolder ${opts.subfolder}: ${sub} is not a folder`);
    return;
  }
  try {
    checkHubRepo({ repoId: model });
  } catch {
    throw new UsageError(`--model ${model}: no such folder, and not a repository id (owner/name)`);
  }
}

export function weightPrecision(flags: Flags, name: string): WeightPrecision | undefined {
  const v = flags.get(name);
  if (v === undefined) return undefined;
  if (!(WEIGHT_PRECISIONS as readonly string[]).includes(v))
    throw new UsageError(`--${name} must be one of ${WEIGHT_PRECISIONS.join(', ')}, got ${v}`);
  return v as WeightPrecision;
}

export function positiveInt(flags: Flags, name: string): number | undefined {
  const v = flags.get(name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--${name} must be a positive integer, got ${v}`);
  return n;
}

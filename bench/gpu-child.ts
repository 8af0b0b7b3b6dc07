// One run of `npm run bench -- gpu`, in its own process (its own peak memory, and a hung GPU
// promise cannot outlive its time limit): the checkpoint through the preview's model code on
// `--device webgpu` (onnxruntime-web's native WebGPU EP on Dawn's navigator.gpu) or `cpu`
// (onnxruntime-node, float32: the reference), then the preview's own DDIM loop for
// `--denoise-steps`. Prints one JSON line; writes the first output.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseCommandLine } from '../src/cli/command-line.ts';
import { runPreview } from '../src/model/pipeline/run-preview.ts';
import { parseConfig } from '../src/model/graph/config.ts';
import { parseShapeSpec } from '../src/model/cli/shape-spec.ts';
import { argsFromNamedTensors } from '../src/model/models/consisid/named-inputs.ts';
import { WEIGHT_PRECISIONS, type WeightPrecision } from '../src/model/plan/precision.ts';
import { entryToHost, parseSafetensors } from '../src/model/io/safetensors/read.ts';
import { installDawn, type AdapterFacts } from './dawn.ts';
import { benchModel, type BenchModel } from './gpu-model.ts';
import { memorySampler } from './process-memory.ts';

export interface GpuChildReport {
  device: 'webgpu' | 'cpu';
  weights: WeightPrecision;
  adapter: AdapterFacts | null;
  /** why the run did not happen (a precision the adapter cannot run), when it did not */
  skipped?: string;
  attention: string;
  sessionMs: number;
  firstMs: number;
  warmMs: number[];
  /** the preview's DDIM loop (runPreview), no guidance: steps per second of wall time */
  denoise: { steps: number; ms: number } | null;
  /** the most JS heap + external + the shared wasm heap seen, sampled every 20 ms (process-memory.ts) */
  peakJsWasmBytes: number;
  peakRssBytes: number;
}

// where a run stands, for the parent to report when it is stopped at its time limit
const stage = (s: string) => console.error(`stage: ${s} at ${(performance.now() / 1000).toFixed(1)} s`);

async function denoise(model: BenchModel, dir: string, shape: string, steps: number) {
  const c = parseConfig(JSON.parse(readFileSync(path.join(dir, 'config.json'), 'utf8')));
  const s = parseShapeSpec(shape, c);
  const spec = {
    seed: 7,
    frames: s.frames,
    height: s.height,
    width: s.width,
    textLength: s.textLength,
    timestep: 999,
    identity: c.is_train_face,
    vitTokens: s.face?.vitLengths[0],
  };
  const timings = { loadMs: 0, graphBuildMs: [], sessionCreateMs: [], forwardMs: [] as number[], rotaryMs: 0 };
  const t = performance.now();
  await runPreview(c, { spec, mode: 'denoise', steps, guidance: 1, uploads: {} }, timings, {
    forward: async (args) => {
      const f = performance.now();
      const out = await model.forward(args);
      timings.forwardMs.push(performance.now() - f);
      return out;
    },
    stage: (x) => stage(`denoise ${x}`),
    step: () => undefined,
  });
  return { steps, ms: performance.now() - t };
}

async function main(argv: readonly string[]): Promise<GpuChildReport> {
  const { values } = parseCommandLine(argv, {
    dir: { type: 'string' },
    inputs: { type: 'string' },
    shape: { type: 'string' },
    device: { type: 'string' },
    weights: { type: 'string' },
    runs: { type: 'string' },
    'denoise-steps': { type: 'string' },
    out: { type: 'string' },
  });
  const device = values.device === 'cpu' ? 'cpu' : 'webgpu';
  const weights = (values.weights ?? 'float32') as WeightPrecision;
  if (!WEIGHT_PRECISIONS.includes(weights)) throw new Error(`--weights ${values.weights}`);
  const memory = memorySampler();
  const adapter = device === 'webgpu' ? await installDawn() : null;
  if (device === 'webgpu' && !adapter) throw new Error('Dawn found no WebGPU adapter (see bench/dawn.ts)');
  if (weights === 'float16' && adapter && !adapter.shaderF16) {
    const none = { attention: '', sessionMs: 0, firstMs: 0, warmMs: [], denoise: null, peakRssBytes: 0 };
    return {
      device,
      weights,
      adapter,
      ...none,
      skipped: 'the adapter has no shader-f16',
      peakJsWasmBytes: memory.stop(),
    };
  }
  const inputs = parseSafetensors(new Uint8Array(readFileSync(values.inputs!)), values.inputs!);
  const args = argsFromNamedTensors(new Map([...inputs.tensors].map(([k, e]) => [k, entryToHost(e, values.inputs!)])));
  const model = await benchModel(values.dir!, device, weights);
  stage(`session (adapter ${adapter ? `${adapter.vendor}/${adapter.architecture}` : 'none'})`);
  let t = performance.now();
  await model.session(args);
  const sessionMs = performance.now() - t;
  stage('first forward');
  t = performance.now();
  const first = (await model.forward(args)).data as Float32Array;
  const firstMs = performance.now() - t;
  writeFileSync(values.out!, first);
  stage('warm forwards');
  const warmMs: number[] = [];
  for (let i = 0; i < Number(values.runs ?? 3); i++) {
    t = performance.now();
    await model.forward(args);
    warmMs.push(performance.now() - t);
  }
  const steps = Number(values['denoise-steps'] ?? 0);
  const denoised = steps > 0 ? await denoise(model, values.dir!, values.shape!, steps) : null;
  stage('attention kernel');
  const attention = await model.attention();
  stage('release');
  await model.release();
  return {
    device,
    weights,
    adapter,
    attention,
    sessionMs,
    firstMs,
    warmMs,
    denoise: denoised,
    peakJsWasmBytes: memory.stop(),
    peakRssBytes: process.resourceUsage().maxRSS * 1024,
  };
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  console.log(JSON.stringify(await main(process.argv.slice(2))));
  // Dawn keeps the process alive while a GPU object is referenced
  process.exit(0);
}

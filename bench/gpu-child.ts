// One run of `npm run bench -- gpu`, in its own process (its own peak memory, and a hung GPU
// promise cannot outlive its time limit): the checkpoint through the preview's model code on
// `--device webgpu` (onnxruntime-web's native WebGPU EP on Dawn's navigator.gpu) or `cpu`
// (onnxruntime-node, float32: the reference). Prints one JSON line; writes the first output.
import { readFileSync, writeFileSync } from 'node:fs';
import { parseCommandLine } from '../src/cli/command-line.ts';
import { ConsisIDTransformer3DModel } from '../src/model/consisid-model.ts';
import { loadCheckpoint } from '../src/model/loader/load-checkpoint.ts';
import { localSource } from '../src/model/loader/local-source.ts';
import { argsFromNamedTensors } from '../src/model/named-inputs.ts';
import { computeDtypeFor, WEIGHT_PRECISIONS, type WeightPrecision } from '../src/model/precision.ts';
import { nodeBackend } from '../src/model/runtime/node.ts';
import { nodeWebgpuBackend } from '../src/model/runtime/node-webgpu.ts';
import { entryToHost, parseSafetensors } from '../src/model/safetensors/read.ts';
import { installDawn, type AdapterFacts } from './dawn.ts';

export interface GpuChildReport {
  device: 'webgpu' | 'cpu';
  weights: WeightPrecision;
  adapter: AdapterFacts | null;
  attention: string;
  sessionMs: number;
  firstMs: number;
  warmMs: number[];
  /** the most JS heap + external (ArrayBuffers, the wasm heap) seen, sampled every 20 ms */
  peakJsWasmBytes: number;
  peakRssBytes: number;
}

/** the most JS heap + external seen from now until `stop` */
export function memorySampler() {
  let peak = 0;
  const sample = () => {
    const m = process.memoryUsage();
    peak = Math.max(peak, m.heapUsed + m.external);
  };
  const timer = setInterval(sample, 20);
  return {
    stop: () => {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}

async function main(argv: readonly string[]): Promise<GpuChildReport> {
  const { values } = parseCommandLine(argv, {
    dir: { type: 'string' },
    inputs: { type: 'string' },
    device: { type: 'string' },
    weights: { type: 'string' },
    runs: { type: 'string' },
    out: { type: 'string' },
  });
  const device = values.device === 'cpu' ? 'cpu' : 'webgpu';
  const weights = (values.weights ?? 'float32') as WeightPrecision;
  if (!WEIGHT_PRECISIONS.includes(weights)) throw new Error(`--weights ${values.weights}`);
  const memory = memorySampler();
  const adapter = device === 'webgpu' ? await installDawn() : null;
  if (device === 'webgpu' && !adapter) throw new Error('Dawn found no WebGPU adapter (see bench/dawn.ts)');
  const inputs = parseSafetensors(new Uint8Array(readFileSync(values.inputs!)), values.inputs!);
  const args = argsFromNamedTensors(new Map([...inputs.tensors].map(([k, e]) => [k, entryToHost(e, values.inputs!)])));
  const backend = device === 'cpu' ? nodeBackend() : await nodeWebgpuBackend();
  const model = ConsisIDTransformer3DModel.fromCheckpoint(await loadCheckpoint(localSource(values.dir!)), {
    backend,
    device,
    weights,
    dtype: computeDtypeFor(weights, undefined),
  });
  // where a run stands, for the parent to report when it is stopped at its time limit
  const stage = (s: string) => console.error(`stage: ${s} at ${(performance.now() / 1000).toFixed(1)} s`);
  stage(`session (adapter ${adapter ? `${adapter.vendor}/${adapter.architecture}` : 'none'})`);
  let t = performance.now();
  await model.session(args);
  const sessionMs = performance.now() - t;
  stage('first forward');
  t = performance.now();
  const first = (await model.forward(args)).sample.data as Float32Array;
  const firstMs = performance.now() - t;
  stage('warm forwards');
  writeFileSync(values.out!, first);
  const warmMs: number[] = [];
  for (let i = 0; i < Number(values.runs ?? 3); i++) {
    t = performance.now();
    await model.forward(args);
    warmMs.push(performance.now() - t);
  }
  const attention = device === 'webgpu' ? ((await backend.webgpuAttention?.()) ?? 'fused') : 'fused';
  await model.release();
  return {
    device,
    weights,
    adapter,
    attention,
    sessionMs,
    firstMs,
    warmMs,
    peakJsWasmBytes: memory.stop(),
    peakRssBytes: process.resourceUsage().maxRSS * 1024,
  };
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  console.log(JSON.stringify(await main(process.argv.slice(2))));
  // Dawn keeps the process alive while a GPU object is referenced
  process.exit(0);
}

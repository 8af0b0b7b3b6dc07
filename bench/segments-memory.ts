// What a segmented session leaves in memory: the model's sessions are made segment by segment on
// one device, and after each (and after a garbage collection) the process's memory is read: JS
// heap, external + ArrayBuffers (the wasm heap of onnxruntime-web is one), RSS. The checkpoint is
// generated in memory and read tensor by tensor (as a Range-request or OPFS source is), so every
// weight byte in JS is one the session model took. Prints one JSON line.
//   node --expose-gc --import tsx bench/segments-memory.ts --device wasm|webgpu|cpu --config preview-s
//        --weights float32 --segments 4|none [--shape frames=2,...] [--forward no]
import { parseCommandLine } from '../src/cli/command-line.ts';
import { ConsisIDTransformer3DModel } from '../src/model/models/consisid/consisid-model.ts';
import { checkpointFromTensors } from '../src/model/models/consisid/checkpoint-writer.ts';
import { parseConfig } from '../src/model/graph/config.ts';
import { NAMED_CONFIGS } from '../src/model/models/consisid/named-configs.ts';
import { randomWeights } from '../src/model/models/consisid/random-weights.ts';
import { randomInputs } from '../src/model/cli/generate-command.ts';
import { parseShapeSpec } from '../src/model/cli/shape-spec.ts';
import { argsFromNamedTensors } from '../src/model/models/consisid/named-inputs.ts';
import { computeDtypeFor, type WeightPrecision } from '../src/model/plan/precision.ts';
import { nodeBackend } from '../src/model/runtime/node.ts';
import { nodeWebgpuBackend } from '../src/model/runtime/node-webgpu.ts';
import type { InferenceBackend } from '../src/model/runtime/types.ts';
import { installDawn } from './dawn.ts';
import { memorySampler, mib, readMemory as read, type Reading } from './process-memory.ts';

async function main(argv: readonly string[]) {
  const { values } = parseCommandLine(argv, {
    device: { type: 'string' },
    config: { type: 'string' },
    weights: { type: 'string' },
    segments: { type: 'string' },
    shape: { type: 'string' },
    forward: { type: 'string' },
  });
  const device = (values.device ?? 'wasm') as 'wasm' | 'webgpu' | 'cpu';
  const name = values.config ?? 'preview-s';
  const config = parseConfig(NAMED_CONFIGS[name]!, name);
  const weights = (values.weights ?? 'float32') as WeightPrecision;
  const segments = values.segments === undefined || values.segments === 'none' ? undefined : Number(values.segments);
  const shape = parseShapeSpec(values.shape ?? 'frames=2,height=16,width=16,text=16,vit=9', config);
  const adapter = device === 'webgpu' ? await installDawn() : null;
  if (device === 'webgpu' && !adapter) throw new Error('no WebGPU adapter (GPU_BENCH_SWIFTSHADER=1 for SwiftShader)');
  const ck = await checkpointFromTensors(config, randomWeights(config, 1));
  // read tensor by tensor into bytes of their own, as from OPFS or Range requests: the checkpoint's
  // own bytes are the baseline, every byte above it is one a session model took
  const files = new Map(
    [...ck.files].map(([k, f]) => [
      k,
      { ...f, bytes: undefined, read: async (o: number, l: number) => (await f.read(o, l)).slice() },
    ]),
  );
  const args = argsFromNamedTensors(new Map(Object.entries(randomInputs(config, shape, 2))));
  const readings: Reading[] = [read('checkpoint in memory')];
  const base: InferenceBackend =
    device === 'webgpu' ? await nodeWebgpuBackend() : device === 'wasm' ? nodeBackend() : nodeBackend();
  let made = 0;
  const backend: InferenceBackend = {
    ...base,
    async createSession(model, opts) {
      const s = await base.createSession(model, opts);
      readings.push(read(`session ${++made} made`));
      return s;
    },
  };
  const model = ConsisIDTransformer3DModel.fromCheckpoint(
    { config, weights: ck.weights, files },
    { backend, device, weights, dtype: computeDtypeFor(weights, undefined), segments },
  );
  const peak = memorySampler();
  const t0 = performance.now();
  await model.session(args);
  const sessionMs = Math.round(performance.now() - t0);
  const peakDuringSessionsMiB = mib(peak.stop());
  readings.push(read('all sessions made'));
  // a forward on SwiftShader through Dawn in Node takes minutes (docs/model-webgpu.md): --forward no
  if (values.forward !== 'no') {
    await model.forward(args);
    readings.push(read('after a forward'));
  }
  return { device, config: name, weights, segments: segments ?? 'none', sessionMs, peakDuringSessionsMiB, readings };
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  console.log(JSON.stringify(await main(process.argv.slice(2))));
  process.exit(0);
}

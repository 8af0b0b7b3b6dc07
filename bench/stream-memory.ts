// The preview's load path on a checkpoint served over HTTP, measured for memory: the weight files
// stream by Range requests through the page's loader (chunkedHubSource), are converted to the
// precision tensor by tensor into a weight cache on disk (what OPFS is to the page), and the
// model's segments ('auto', from the adapter's limits or the planning limits) are made one after
// another on onnxruntime-web's native WebGPU EP over Dawn (SwiftShader without a GPU); then, unless
// `--forward no`, one forward. Memory is sampled every 20 ms and read after each stage. Prints one
// JSON line. Run by bench/model-memory.ts (`npm run bench -- model-memory`), or alone:
//   node --expose-gc --import tsx bench/stream-memory.ts --hub http://127.0.0.1:5120 --repo local/consisid
//        [--subfolder transformer] --weights int4 --shape frames=1,height=4,width=4,text=226,vit=9
//        --cache <dir> [--limits adapter|planning] [--forward yes|no] [--heap-budget <bytes of one segment>]
import { memorySampler, mib, readMemory as readProcess, type Reading } from './process-memory.ts';
import { PARTIAL_REPORT, type StreamMemoryReport } from './stream-memory-report.ts';
import { parseCommandLine } from '../src/cli/command-line.ts';
import { ConsisIDTransformer3DModel } from '../src/model/models/consisid/consisid-model.ts';
import { randomInputs } from '../src/model/cli/generate-command.ts';
import { parseShapeSpec } from '../src/model/cli/shape-spec.ts';
import { planFit } from '../src/model/plan/fit.ts';
import { chunkedHubSource } from '../src/model/cache/chunked-hub-source.ts';
import { convertedSource } from '../src/model/convert/converted-source.ts';
import { hubSource, openHubFile, type HubRepo } from '../src/model/io/hub-files.ts';
import { argsFromNamedTensors } from '../src/model/models/consisid/named-inputs.ts';
import { WEIGHT_PRECISIONS, type WeightPrecision } from '../src/model/plan/precision.ts';
import { nodeWebgpuBackend } from '../src/model/runtime/node-webgpu.ts';
import type { InferenceBackend } from '../src/model/runtime/types.ts';
import { WEIGHTS_INDEX_NAME, WEIGHTS_NAME } from '../src/model/io/safetensors/index-file.ts';
import { gpuBuffers, installDawn } from './dawn.ts';
import { diskCache, diskCacheBytes } from './disk-cache.ts';
import { PLANNING_LIMITS } from './gpu-model.ts';

/** the process's memory and the GPU buffers live (made by onnxruntime and not destroyed) */
const readMemory = (label: string): Reading & { gpuBuffersMiB: number } => ({
  ...readProcess(label),
  gpuBuffersMiB: mib(gpuBuffers.live),
});

const stage = (s: string) => console.error(`stage: ${s} at ${(performance.now() / 1000).toFixed(1)} s`);

/** the weight files of the checkpoint (from its index, else the one file), with the size and ETag the hub gives */
async function weightFiles(repo: HubRepo) {
  const index = await hubSource(repo).read(WEIGHTS_INDEX_NAME);
  const names = index
    ? [...new Set(Object.values((JSON.parse(new TextDecoder().decode(index)) as { weight_map: object }).weight_map))]
    : [WEIGHTS_NAME];
  return Promise.all(
    (names as string[]).map(async (name) => {
      const f = await openHubFile(repo, name);
      if (!f) throw new Error(`${name} is not on the hub`);
      return { name, size: f.size, etag: f.etag };
    }),
  );
}

async function main(argv: readonly string[]): Promise<StreamMemoryReport> {
  const { values } = parseCommandLine(argv, {
    hub: { type: 'string' },
    repo: { type: 'string' },
    subfolder: { type: 'string' },
    weights: { type: 'string' },
    shape: { type: 'string' },
    cache: { type: 'string' },
    limits: { type: 'string' },
    forward: { type: 'string' },
    'heap-budget': { type: 'string' },
  });
  const weights = (values.weights ?? 'int4') as WeightPrecision;
  if (!WEIGHT_PRECISIONS.includes(weights)) throw new Error(`--weights ${values.weights}`);
  if (!values.hub || !values.repo || !values.cache) throw new Error('--hub, --repo and --cache are needed');
  const memory = memorySampler();
  const readings = [readMemory('start')];
  const adapter = await installDawn();
  if (!adapter) throw new Error('Dawn found no WebGPU adapter (see bench/dawn.ts)');
  const limits =
    values.limits === 'planning'
      ? PLANNING_LIMITS
      : { maxBufferSize: adapter.maxBufferSize, maxStorageBufferBindingSize: adapter.maxStorageBufferBindingSize };
  const heapBudget = values['heap-budget'] ? Number(values['heap-budget']) : undefined;
  const repo: HubRepo = { repoId: values.repo, hubUrl: values.hub, subfolder: values.subfolder ?? 'transformer' };
  let downloadedBytes = 0;
  const cache = diskCache(values.cache);
  const files = chunkedHubSource(repo, await weightFiles(repo), {
    cache: weights === 'float32' ? cache : null,
    onFetched: (n) => (downloadedBytes += n),
  });
  const source = weights === 'float32' ? files : convertedSource(files, cache, weights);
  const base = await nodeWebgpuBackend();
  let made = 0;
  const backend: InferenceBackend = {
    ...base,
    async createSession(model, opts) {
      const s = await base.createSession(model, opts);
      // the device-side loop makes small sessions of its own: only the segments' (with weights) count
      if (model.externalData.size) {
        readings.push(readMemory(`segment ${++made} made`));
        stage(`segment ${made} made`);
      }
      return s;
    },
  };
  stage('open');
  let t = performance.now();
  const model = await ConsisIDTransformer3DModel.fromPretrained(values.repo, {
    source,
    environment: { backend: async () => backend, localSource: async () => null, defaultDevice: 'webgpu' },
    device: 'webgpu',
    weights,
    segments: 'auto',
    segmentLimits: { gpu: limits, heapBudget },
    maxSessions: 1,
    keepOnDevice: true,
    onStage: (e) => {
      if (e.state === 'end') readings.push(readMemory(`${e.stage} done`));
      stage(`${e.stage} ${e.state}`);
    },
  });
  const openS = (performance.now() - t) / 1000;
  const shapeSpec = values.shape ?? 'frames=1,height=4,width=4,vit=9';
  const shape = parseShapeSpec(shapeSpec, model.config);
  const adapterCaps = {
    limits,
    shaderF16: adapter.shaderF16,
    subgroups: adapter.subgroups,
    subgroupMinSize: adapter.subgroupMinSize,
  };
  const fit = planFit(model.config, shape, 'webgpu', adapterCaps, heapBudget).find((f) => f.weights === weights)!;
  const args = argsFromNamedTensors(new Map(Object.entries(randomInputs(model.config, shape, 2))));
  t = performance.now();
  await model.session(args);
  const sessionS = (performance.now() - t) / 1000;
  readings.push(readMemory('all segments made'));
  await source.release();
  const report = async (forwardS: number | null): Promise<StreamMemoryReport> => {
    const peaks = memory.peaks();
    return {
      weights,
      shape: shapeSpec,
      adapter,
      limits,
      plan: {
        weightBytes: fit.weightBytes,
        activationPeakBytes: fit.activationPeakBytes,
        gpuBytes: fit.gpuBytes ?? 0,
        heapBytes: fit.heapBytes,
        segments: fit.segments ?? 1,
      },
      downloadedBytes,
      convertedBytes: await diskCacheBytes(values.cache!),
      sessionsMade: made,
      openS,
      sessionS,
      forwardS,
      peakJsWasmBytes: peaks.jsWasm,
      peakRssBytes: Math.max(peaks.rss, process.resourceUsage().maxRSS * 1024),
      peakGpuBufferBytes: gpuBuffers.peak,
      gpuBuffersMade: gpuBuffers.made,
      readings,
    };
  };
  if (values.forward === 'no') return report(null);
  // what the sessions cost, for the parent to report if the forward runs past the time limit
  console.error(`${PARTIAL_REPORT}${JSON.stringify(await report(null))}`);
  stage('forward');
  t = performance.now();
  await model.forward(args);
  const forwardS = (performance.now() - t) / 1000;
  readings.push(readMemory('after a forward'));
  return report(forwardS);
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  console.log(JSON.stringify(await main(process.argv.slice(2))));
  // Dawn keeps the process alive while a GPU object is referenced
  process.exit(0);
}

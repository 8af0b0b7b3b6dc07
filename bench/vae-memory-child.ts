// One VAE decode on onnxruntime-node CPU with chosen session options, in its own process (its peak
// RSS is its own), for `npm run bench -- vae-memory`: prints one JSON line with the peak RSS after
// the sessions are made (weights) and after the decode (weights + activations), and the run's time.
// --vae <dir> --latents BxFxCxHxW --threads n --options '{"enableCpuMemArena":true,...}'
import { parseCommandLine } from '../src/cli/command-line.ts';
import { localSource } from '../src/model/io/local-source.ts';
import { VaeDecoder } from '../src/model/models/vae/decoder.ts';
import { loadVae } from '../src/model/models/vae/load.ts';
import { nodeBackend } from '../src/model/runtime/node.ts';
import type { InferenceBackend } from '../src/model/runtime/types.ts';

export interface VaeMemoryChildReport {
  /** peak RSS once the first batch's session is made, before it runs */
  sessionsRss: number;
  /** peak RSS of the whole process */
  peakRss: number;
  /** seconds of the decode's batch runs (sessions made before) */
  run: number;
  /** CPU seconds (user + system) of the decode: on a shared machine steadier than its wall time */
  cpu: number;
}

const { values } = parseCommandLine(process.argv.slice(2), {
  vae: { type: 'string' },
  latents: { type: 'string' },
  threads: { type: 'string' },
  options: { type: 'string' },
});
const extra = JSON.parse(values.options ?? '{}') as Record<string, unknown>;
const threads = Number(values.threads ?? 2);
const peak = () => process.resourceUsage().maxRSS * 1024;

/** nodeBackend's cpu sessions with `extra` over their options (the bench's variants) */
const backend: InferenceBackend = nodeBackend(extra);

const dims = values.latents!.split('x').map(Number);
const decoder = new VaeDecoder(await loadVae(localSource(values.vae!)), {
  backend,
  device: 'cpu',
  threads,
  maxSessions: 1,
});
// the first batch's session (a decode releases it after its last run, before the next is made)
await decoder.prepare([dims[0]!, Math.min(dims[1]!, 3), ...dims.slice(2)]);
const sessionsRss = peak();
const data = new Float32Array(dims.reduce((a, b) => a * b, 1));
for (let i = 0; i < data.length; i++) data[i] = Math.sin(i * 0.7311) * 0.8;
const t0 = performance.now();
const c0 = process.cpuUsage();
await decoder.decode({ data, dims });
const run = (performance.now() - t0) / 1000;
const c1 = process.cpuUsage(c0);
const report: VaeMemoryChildReport = { sessionsRss, peakRss: peak(), run, cpu: (c1.user + c1.system) / 1e6 };
await decoder.release();
console.log(JSON.stringify(report));

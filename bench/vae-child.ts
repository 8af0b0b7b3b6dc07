// One `npm run bench -- vae` decode in its own process (its peak RSS is its own): loads the VAE
// folder, creates the sessions, decodes the latents once and prints one JSON line of timings.
// `--batches N` stops the decode after its first N batches (a decode too long to run whole);
// `--tile-size HxW` tiles of H x W pixels (with --tile).
import { parseCommandLine } from '../src/cli/command-line.ts';
import { localSource } from '../src/model/io/local-source.ts';
import { VaeDecoder } from '../src/model/models/vae/decoder.ts';
import { loadVae } from '../src/model/models/vae/load.ts';
import { nodeBackend } from '../src/model/runtime/node.ts';

export interface VaeChildReport {
  load: number;
  /** wall seconds of each batch of the decode, in order (a shape's first batch builds its graph and creates its session) */
  batches: number[];
  decode: number;
  /** the sample's dims; null when the decode stopped after `--batches` */
  outputDims: number[] | null;
  /** batches the whole decode runs */
  total: number;
  peakRss: number;
}

const { values } = parseCommandLine(process.argv.slice(2), {
  vae: { type: 'string' },
  latents: { type: 'string' },
  threads: { type: 'string' },
  tile: { type: 'boolean' },
  batches: { type: 'string' },
  'tile-size': { type: 'string' },
});
const [tileHeight, tileWidth] = (values['tile-size'] ?? '').split('x').map(Number);
const limit = values.batches ? Number(values.batches) : Infinity;
const stop = new AbortController();
const dims = values.latents!.split('x').map(Number);
const t0 = performance.now();
const checkpoint = await loadVae(localSource(values.vae!));
const t1 = performance.now();
const decoder = new VaeDecoder(checkpoint, { backend: nodeBackend(), device: 'cpu', threads: Number(values.threads) });
const t2 = performance.now();
const data = new Float32Array(dims.reduce((a, b) => a * b, 1));
for (let i = 0; i < data.length; i++) data[i] = Math.sin(i * 0.7311) * 0.8;
const batches: number[] = [];
let total = 0;
let last = performance.now();
const out = await decoder
  .decode(
    { data, dims },
    {
      tile: values.tile === true,
      ...(tileHeight && tileWidth ? { tileSize: { height: tileHeight, width: tileWidth } } : {}),
      signal: stop.signal,
      onBatch: (p) => {
        const now = performance.now();
        batches.push((now - last) / 1000);
        last = now;
        total = p.total;
        if (batches.length >= limit) stop.abort();
      },
    },
  )
  .catch((e: unknown) => {
    if (stop.signal.aborted) return null;
    throw e;
  });
const t3 = performance.now();
await decoder.release();
const report: VaeChildReport = {
  load: (t1 - t0) / 1000,
  batches,
  decode: (t3 - t2) / 1000,
  outputDims: out && [...out.dims],
  total,
  peakRss: process.resourceUsage().maxRSS * 1024,
};
console.log(JSON.stringify(report));

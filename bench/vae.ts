// `npm run bench -- vae`: the VAE decode of the preview's latents on onnxruntime-node CPU. A decoder
// of random weights (the released size by default) is generated once into a folder; one decode runs
// in its own process (its peak RSS is its own): load, sessions, each batch's wall time; the plan's
// weight bytes and activation peak per batch graph beside it. diffusers on torch side by side
// (bench/vae-torch.ts) where a python with torch and diffusers is found.
// VAE_BENCH_CONFIG=released|small|<config.json>, VAE_BENCH_LATENTS=<frames>x<height>x<width> (13x30x44),
// VAE_BENCH_THREADS (2), VAE_BENCH_TILE=1 (tiled decode; VAE_BENCH_TILE_SIZE=HxW pixels, else the config's),
// VAE_BENCH_BATCHES=N (stop after N batches: the projected decode is the batches run plus the last one's
// time for each batch left), VAE_BENCH_TORCH_LATENTS (5x8x12; 0 skips torch), VAE_BENCH_TORCH_ROUNDS (3).
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { parseVaeConfig } from '../src/model/models/vae/config.ts';
import { planVaeDecode } from '../src/model/models/vae/plan.ts';
import { readVaeConfigArg, writeVaeFolder } from '../src/model/models/vae/vae-folder.ts';
import { figure, median, type Figure } from './figure.ts';
import type { VaeChildReport } from './vae-child.ts';
import { torchSideBySide } from './vae-torch.ts';

const root = path.resolve(import.meta.dirname, '..');
const run = promisify(execFile);
const CONFIG = process.env.VAE_BENCH_CONFIG ?? 'released';
const LATENTS = process.env.VAE_BENCH_LATENTS ?? '13x30x44';
const THREADS = Number(process.env.VAE_BENCH_THREADS ?? 2);
const TILE = process.env.VAE_BENCH_TILE === '1';
/** the side-by-side decode with diffusers on torch (bench/vae-torch.ts): latent size (0: skip) and runs */
const TORCH_LATENTS = process.env.VAE_BENCH_TORCH_LATENTS ?? '5x8x12';
const TORCH_ROUNDS = Number(process.env.VAE_BENCH_TORCH_ROUNDS ?? 3);
const BATCHES = process.env.VAE_BENCH_BATCHES;
const TILE_SIZE = process.env.VAE_BENCH_TILE_SIZE;

/** the generated VAE folder, written once per config */
export async function vaeFolder(raw: Record<string, unknown>): Promise<{ dir: string; weightBytes: number }> {
  const stamp = createHash('sha1').update(JSON.stringify(raw)).digest('hex').slice(0, 12);
  const dir = path.join(os.tmpdir(), `hub-console-bench-vae-${stamp}`);
  const marker = path.join(dir, '.generated');
  if (existsSync(marker)) return { dir, weightBytes: Number(readFileSync(marker, 'utf8')) };
  rmSync(dir, { recursive: true, force: true });
  const weightBytes = await writeVaeFolder(dir, raw, { seed: 1 });
  writeFileSync(marker, String(weightBytes));
  return { dir, weightBytes };
}

export default async function bench(): Promise<Figure[]> {
  const { raw, label } = await readVaeConfigArg(CONFIG);
  const config = parseVaeConfig(raw);
  const [frames, height, width] = LATENTS.split('x').map(Number) as [number, number, number];
  const dims = [1, frames, config.latent_channels, height, width];
  const { dir } = await vaeFolder(raw);
  const [th, tw] = (TILE_SIZE ?? '').split('x').map(Number);
  const plan = planVaeDecode(config, dims, {
    tile: TILE,
    ...(th && tw ? { tileSize: { height: th, width: tw } } : {}),
  });
  const { stdout } = await run(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(root, 'bench/vae-child.ts'),
      '--vae',
      dir,
      '--latents',
      dims.join('x'),
      '--threads',
      String(THREADS),
      ...(TILE ? ['--tile'] : []),
      ...(BATCHES ? ['--batches', BATCHES] : []),
      ...(TILE && TILE_SIZE ? ['--tile-size', TILE_SIZE] : []),
    ],
    { cwd: root, maxBuffer: 2 ** 24 },
  );
  const r = JSON.parse(stdout.trim().split('\n').at(-1)!) as VaeChildReport;
  const b = 'vae';
  const what = `${label}, latents ${dims.join('x')}${TILE ? `, tiled${TILE_SIZE ? ` ${TILE_SIZE}` : ''}` : ''}, ${THREADS} threads`;
  const whole = r.outputDims !== null;
  const projected = r.batches.reduce((s, x) => s + x, 0) + (r.total - r.batches.length) * r.batches.at(-1)!;
  const out: Figure[] = [
    figure(
      b,
      `decoder (${what})`,
      r.outputDims?.join('x') ?? `first ${r.batches.length} of ${r.total} batches`,
      'sample',
    ),
    figure(b, 'load (config + headers)', r.load, 's'),
    figure(b, whole ? 'decode' : 'decode (projected)', whole ? r.decode : projected, 's'),
    figure(b, 'first batch (with its graph and session)', r.batches[0]!, 's'),
    figure(b, 'second batch (with its graph and session)', r.batches[1] ?? NaN, 's'),
    figure(b, 'later batch (median)', r.batches.length > 2 ? median(r.batches.slice(2)) : NaN, 's'),
    figure(b, 'peak RSS (decode process)', r.peakRss / 2 ** 30, 'GiB'),
    figure(b, 'plan: weight bytes (float32 held)', plan.weightBytes / 2 ** 20, 'MiB'),
    figure(b, 'plan: decode FLOPs (Conv)', plan.flops / 1e12, 'TFLOP'),
    figure(b, 'plan: tiles', plan.tiles, ''),
  ];
  for (const p of plan.batches)
    out.push(
      figure(
        b,
        `plan: activation peak ${p.signature} (x${p.runs}; + im2col)`,
        (p.cpu.activationPeakBytes + p.im2colBytes) / 2 ** 30,
        'GiB',
      ),
    );
  out.push(figure(b, 'plan: fits a browser untiled', plan.fit.reasons.join('; ') || 'yes', ''));
  if (TORCH_LATENTS !== '0') {
    const [f, h, w] = TORCH_LATENTS.split('x').map(Number) as [number, number, number];
    out.push(...(await torchSideBySide(dir, [1, f, config.latent_channels, h, w], THREADS, TORCH_ROUNDS)));
  }
  return out;
}

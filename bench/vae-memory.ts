// `npm run bench -- vae-memory`: the peak RSS of one VAE decode on onnxruntime-node CPU beside what the
// plan says the process takes (cpuProcessBytes), per latent size and session-option variant, each
// decode in its own process (bench/vae-memory-child.ts), the variants alternating round by round.
// VAE_MEMORY_CONFIG=released|small|<config.json>, VAE_MEMORY_LATENTS=FxHxW,... (3x6x5,3x12x10,3x18x15),
// VAE_MEMORY_OPTIONS='[{}, {"enableCpuMemArena": true}]' (onnxruntime session options over nodeBackend's;
// {}: the VAE's own sessions, without the arena), VAE_MEMORY_ROUNDS (1), VAE_MEMORY_THREADS (2).
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { parseVaeConfig } from '../src/model/models/vae/config.ts';
import { planVaeDecode } from '../src/model/models/vae/plan.ts';
import { readVaeConfigArg } from '../src/model/models/vae/vae-folder.ts';
import { figure, median, type Figure } from './figure.ts';
import type { VaeMemoryChildReport } from './vae-memory-child.ts';
import { vaeFolder } from './vae.ts';

const root = path.resolve(import.meta.dirname, '..');
const run = promisify(execFile);
const CONFIG = process.env.VAE_MEMORY_CONFIG ?? 'released';
const LATENTS = (process.env.VAE_MEMORY_LATENTS ?? '3x6x5,3x12x10,3x18x15').split(',');
const OPTIONS = JSON.parse(process.env.VAE_MEMORY_OPTIONS ?? '[{}]') as Record<string, unknown>[];
const ROUNDS = Number(process.env.VAE_MEMORY_ROUNDS ?? 1);
const THREADS = Number(process.env.VAE_MEMORY_THREADS ?? 2);

async function child(dir: string, dims: number[], options: Record<string, unknown>): Promise<VaeMemoryChildReport> {
  const args = ['--vae', dir, '--latents', dims.join('x'), '--threads', String(THREADS)];
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'bench/vae-memory-child.ts'), ...args, '--options', JSON.stringify(options)],
    { cwd: root, maxBuffer: 2 ** 24 },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as VaeMemoryChildReport;
}

export default async function bench(): Promise<Figure[]> {
  const { raw, label } = await readVaeConfigArg(CONFIG);
  const config = parseVaeConfig(raw);
  const { dir } = await vaeFolder(raw);
  const out: Figure[] = [];
  const GB = 1e9;
  for (const latents of LATENTS) {
    const [f, h, w] = latents.split('x').map(Number) as [number, number, number];
    const dims = [1, f, config.latent_channels, h, w];
    const plan = planVaeDecode(config, dims);
    const reports: VaeMemoryChildReport[][] = OPTIONS.map(() => []);
    for (let r = 0; r < ROUNDS; r++)
      for (const [i, o] of OPTIONS.entries()) reports[i]!.push(await child(dir, dims, o));
    const what = `${label}, latents ${dims.join('x')}`;
    out.push(figure('vae-memory', `plan: process (${what})`, plan.cpuProcessBytes / GB, 'GB'));
    for (const [i, o] of OPTIONS.entries()) {
      const rs = reports[i]!;
      const peak = Math.max(...rs.map((x) => x.peakRss));
      const name = `${what}, options ${JSON.stringify(o)}`;
      out.push(
        figure('vae-memory', `peak RSS, most of ${rs.length} (${name})`, peak / GB, 'GB'),
        figure('vae-memory', `RSS with the session made (${name})`, median(rs.map((x) => x.sessionsRss)) / GB, 'GB'),
        figure('vae-memory', `decode run, median (${name})`, median(rs.map((x) => x.run)), 's'),
        figure('vae-memory', `decode CPU time, median (${name})`, median(rs.map((x) => x.cpu)), 's'),
        figure('vae-memory', `plan / peak RSS (${name})`, plan.cpuProcessBytes / peak, '', { op: '>=', value: 1 }),
      );
    }
  }
  return out;
}

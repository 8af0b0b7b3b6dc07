// `npm run bench -- vae-page`: the VAE decode in Chromium: the library's decoder in a page
// (e2e/vae-page-support.ts) on WASM and on WebGPU (SwiftShader where there is no GPU), a generated
// decoder of the released size, the preview's latents in the tiles chooseVaeTiling picks for the
// device's page budget, the first batches only: seconds per batch, the projected decode, and the
// page's JS + WASM after them (measureUserAgentSpecificMemory; WASM memory never shrinks, so this
// holds its peak), against the page's 1.5 GB target.
// VAE_PAGE_CONFIG=released|small|<config.json>, VAE_PAGE_LATENTS=<frames>x<height>x<width> (13x30x44),
// VAE_PAGE_DEVICES (wasm,webgpu), VAE_PAGE_BATCHES (1), VAE_PAGE_PORT (5199: the page server).
import { chromium } from '@playwright/test';
import { webgpuLaunch } from '../playwright.config.ts';
import { decodeWithPage, startVaePageServer } from '../e2e/vae-page-support.ts';
import { parseVaeConfig } from '../src/model/models/vae/config.ts';
import { chooseVaeTiling, VAE_PAGE_BUDGET } from '../src/model/models/vae/plan.ts';
import { tileGeometry } from '../src/model/models/vae/tiling.ts';
import { readVaeConfigArg } from '../src/model/models/vae/vae-folder.ts';
import { figure, type Figure } from './figure.ts';
import { vaeFolder } from './vae.ts';

const CONFIG = process.env.VAE_PAGE_CONFIG ?? 'released';
const LATENTS = process.env.VAE_PAGE_LATENTS ?? '13x30x44';
const DEVICES = (process.env.VAE_PAGE_DEVICES ?? 'wasm,webgpu').split(',') as ('wasm' | 'webgpu')[];
const BATCHES = Number(process.env.VAE_PAGE_BATCHES ?? 1);
const PORT = Number(process.env.VAE_PAGE_PORT ?? 5199);
/** the page's JS + WASM target */
const PAGE_TARGET_MB = 1500;

export default async function bench(): Promise<Figure[]> {
  const { raw, label } = await readVaeConfigArg(CONFIG);
  const config = parseVaeConfig(raw);
  const [frames, height, width] = LATENTS.split('x').map(Number) as [number, number, number];
  const dims = [1, frames, config.latent_channels, height, width];
  const data = Array.from({ length: dims.reduce((a, b) => a * b, 1) }, (_, i) => Math.sin(i * 0.7311) * 0.8);
  const { dir } = await vaeFolder(raw);
  const server = await startVaePageServer(PORT, dir);
  const out: Figure[] = [];
  try {
    for (const device of DEVICES) {
      const plan = chooseVaeTiling(config, dims, undefined, VAE_PAGE_BUDGET[device]);
      const tile = plan.decode.tileSize ? tileGeometry(config, plan.decode.tileSize).latent.join('x') : 'untiled';
      const b = 'vae-page';
      const what = `${device}: ${label}, latents ${dims.join('x')}, tiles ${tile} latents (${plan.tiles})`;
      const browser = await chromium.launch(webgpuLaunch);
      try {
        const page = await browser.newPage();
        const r = await decodeWithPage(page, server, {
          device,
          latents: { data, dims },
          tile: plan.decode.tile,
          ...(plan.decode.tileSize ? { tileSize: plan.decode.tileSize } : {}),
          batches: BATCHES,
          maxSessions: plan.maxSessions,
        });
        const ran = r.batchSeconds.reduce((s, x) => s + x, 0);
        const figures = [
          figure(b, `${what}: plan need (weights + one batch)`, plan.needBytes / 2 ** 20, 'MiB'),
          ...r.batchSeconds.map((s, i) => figure(b, `${device}: batch ${i + 1} of ${r.total}`, s, 's')),
          figure(
            b,
            `${device}: decode (projected)`,
            ran + (r.total - r.batchSeconds.length) * r.batchSeconds.at(-1)!,
            's',
          ),
          figure(b, `${device}: page JS + WASM`, r.pageBytes / 1e6, 'MB', { op: '<', value: PAGE_TARGET_MB }),
        ];
        // each device's figures as they come: a later device may run past the bench's limit
        for (const f of figures) console.error(`# ${JSON.stringify(f)}`);
        out.push(...figures);
      } finally {
        await browser.close();
      }
    }
  } finally {
    server.close();
  }
  return out;
}

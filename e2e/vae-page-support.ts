// The VAE decoder in a Chromium page without the app: a local server gives a blank page (cross-origin
// isolated, so the page can measure its memory), onnxruntime-web's files, the decoder bundled for the
// browser (vae-page-entry.ts, esbuild) and one VAE folder's files; the page decodes with the build
// the preview page loads for the device (JSPI for WASM, the native WebGPU EP build for WebGPU).
import { execFileSync } from 'node:child_process';
import { createReadStream, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import type * as OrtWeb from 'onnxruntime-web';
import type { decodeInPage, PageDecodeRequest, PageDecodeResult } from './vae-page-entry.ts';

const root = path.resolve(import.meta.dirname, '..');
const ORT_DIST = path.join(root, 'node_modules/onnxruntime-web/dist');

export interface VaePageServer {
  url: string;
  close(): void;
}

const TYPES: Record<string, string> = { '.mjs': 'text/javascript', '.wasm': 'application/wasm', '.html': 'text/html' };

/** the page's server on 127.0.0.1:`port` (a secure context: WebGPU is offered), serving the VAE folder `vae` */
export async function startVaePageServer(port: number, vae: string): Promise<VaePageServer> {
  const out = mkdtempSync(path.join(tmpdir(), 'vae-page-'));
  execFileSync(path.join(root, 'node_modules/.bin/esbuild'), [
    path.join(root, 'e2e/vae-page-entry.ts'),
    '--bundle',
    '--format=esm',
    '--platform=browser',
    '--target=es2022',
    '--external:onnxruntime-web',
    `--outfile=${path.join(out, 'vae-page.mjs')}`,
    '--log-level=warning',
  ]);
  const fileFor = (url: string): string | null => {
    const p = decodeURIComponent(new URL(url, 'http://x').pathname);
    if (p === '/') return path.join(out, 'index.html');
    if (p === '/vae-page.mjs') return path.join(out, 'vae-page.mjs');
    const [, dir, ...rest] = p.split('/');
    if (rest.some((s) => s === '..' || s === '')) return null;
    if (dir === 'ort') return path.join(ORT_DIST, ...rest);
    if (dir === 'vae') return path.join(vae, ...rest);
    return null;
  };
  const server = createServer((req, res) => {
    const headers = {
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-embedder-policy': 'require-corp',
      'cross-origin-resource-policy': 'same-origin',
    };
    const file = fileFor(req.url ?? '/');
    if (file?.endsWith('index.html')) return res.writeHead(200, { ...headers, 'content-type': 'text/html' }).end('');
    if (!file || !existsSync(file) || !statSync(file).isFile()) return res.writeHead(404, headers).end();
    res.writeHead(200, {
      ...headers,
      'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
      'content-length': statSync(file).size,
    });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}/`,
    close() {
      server.closeAllConnections();
      server.close();
      rmSync(out, { recursive: true, force: true });
    },
  };
}

/** decodes in the page (opened on the server first) as the request says */
export async function decodeWithPage(
  page: Page,
  server: VaePageServer,
  req: PageDecodeRequest,
): Promise<PageDecodeResult> {
  await page.goto(server.url);
  return page.evaluate(async (r) => {
    const ortUrl = r.device === 'webgpu' ? '/ort/ort.webgpu.min.mjs' : '/ort/ort.jspi.min.mjs';
    const ort = (await import(/* @vite-ignore */ ortUrl)) as typeof OrtWeb;
    ort.env.wasm.wasmPaths = '/ort/';
    const entryUrl = '/vae-page.mjs';
    const entry = (await import(/* @vite-ignore */ entryUrl)) as { decodeInPage: typeof decodeInPage };
    return entry.decodeInPage(ort, r);
  }, req);
}

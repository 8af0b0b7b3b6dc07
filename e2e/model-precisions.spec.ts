// Each weight precision's graph for WebGPU (exported by `consisid export --device webgpu`) runs in
// Chromium on the build the preview page loads for WebGPU, `onnxruntime-web/webgpu` (onnxruntime's
// C++ WebGPU EP; SwiftShader here), with every node on WebGPU, and stays within the precision's
// tolerance of the reference. The attention is written as the model writes it for this adapter
// (`webgpuAttentionKernel`: decomposed on SwiftShader, whose 4-lane subgroups break the EP's flash attention).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import type * as OrtWeb from 'onnxruntime-web';
import { main } from '../src/model/cli.ts';
import { webgpuAttentionKernel } from '../src/model/runtime/webgpu-features.ts';
import {
  FIXTURE_CASES,
  PRECISION_TOLERANCE,
  fixtureDir,
  loadFixture,
  readNamedTensors,
  relativeError,
} from '../src/model/test-support/fixtures.ts';

const SHAPES: Record<(typeof FIXTURE_CASES)[number], string> = {
  'tiny-base': 'batch=2,frames=2,height=6,width=8,text=7',
  'tiny-face': 'batch=1,frames=2,height=6,width=8,text=7,vit=9,id-batch=1',
  'tiny-rope': 'batch=1,frames=3,height=8,width=12,text=5,rotary',
};
const ORT_DIST = path.resolve('node_modules/onnxruntime-web/dist');
const dir = mkdtempSync(path.join(tmpdir(), 'model-precisions-'));

test.describe.configure({ mode: 'serial' });
test.setTimeout(240_000);
test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** the adapter's facts the model decides its WebGPU attention from */
async function adapterAttention(page: Page) {
  const a = await page.evaluate(async () => {
    type Adapter = { features: Set<string>; info: { subgroupMinSize?: number } };
    const gpu = (navigator as unknown as { gpu: { requestAdapter(): Promise<Adapter | null> } }).gpu;
    const adapter = await gpu.requestAdapter();
    return adapter && { features: [...adapter.features], subgroupMinSize: adapter.info.subgroupMinSize };
  });
  expect(a, 'Chromium gives a WebGPU adapter').not.toBeNull();
  return webgpuAttentionKernel({
    requestAdapter: async () => ({ features: new Set(a!.features), info: { subgroupMinSize: a!.subgroupMinSize } }),
  });
}

const cases = [
  ...FIXTURE_CASES.map((name) => ({ name, weights: 'float32' as const })),
  { name: 'tiny-face' as const, weights: 'int8' as const },
  { name: 'tiny-face' as const, weights: 'int4' as const },
];

for (const { name, weights } of cases) {
  test(`${name}, ${weights}: all nodes on the native WebGPU EP, within ${weights === 'float32' ? 'the case tolerance' : PRECISION_TOLERANCE[weights]} of the reference`, async ({
    page,
  }) => {
    await page.route('**/__model-check/**', async (route) => {
      const file = new URL(route.request().url()).pathname.split('/__model-check/')[1]!;
      const p = file.startsWith('ort/') ? path.join(ORT_DIST, file.slice(4)) : path.join(dir, file);
      const type = p.endsWith('.mjs')
        ? 'text/javascript'
        : p.endsWith('.wasm')
          ? 'application/wasm'
          : 'application/octet-stream';
      await route.fulfill({ body: readFileSync(p), contentType: type });
    });
    const log: string[] = [];
    page.on('console', (m) => log.push(m.text()));
    await page.goto('/');
    const attention = await adapterAttention(page);
    const model = `${name}-${weights}.onnx`;
    const lines: string[] = [];
    const argv = ['export', '--model', fixtureDir(name), '--out', path.join(dir, model), '--weights', weights];
    argv.push('--device', 'webgpu', '--attention', attention, '--shape', SHAPES[name], '--external-data');
    expect(await main(argv, (l) => lines.push(l)), lines.join('\n')).toBe(0);
    const feeds = Object.fromEntries(
      [...readNamedTensors(path.join(fixtureDir(name), 'inputs.safetensors'))].map(([k, t]) => [
        k,
        { data: Array.from(t.data as Float32Array, Number), dims: t.shape },
      ]),
    );
    const result = await page.evaluate(
      async ({ model, feeds }) => {
        const url = '/__model-check/ort/ort.webgpu.min.mjs';
        const ort = (await import(/* @vite-ignore */ url)) as typeof OrtWeb;
        ort.env.wasm.wasmPaths = '/__model-check/ort/';
        ort.env.wasm.numThreads = 1;
        const session = await ort.InferenceSession.create(`/__model-check/${model}`, {
          executionProviders: ['webgpu'],
          logSeverityLevel: 0,
          externalData: [{ path: `${model}.data`, data: `/__model-check/${model}.data` }],
        });
        const inputs: Record<string, OrtWeb.Tensor> = {};
        for (const [k, v] of Object.entries(feeds))
          if (session.inputNames.includes(k)) inputs[k] = new ort.Tensor('float32', Float32Array.from(v.data), v.dims);
        const out = await session.run(inputs);
        const data = Array.from(out.sample!.data as Float32Array);
        await session.release();
        return data;
      },
      { model, feeds },
    );
    expect(
      log.some((l) => l.includes('All nodes placed on [WebGpuExecutionProvider]')),
      log.filter((l) => /placed|assigned/.test(l)).join('\n'),
    ).toBe(true);
    const f = loadFixture(name);
    const tolerance =
      weights === 'float32'
        ? f.meta.tolerance.max_abs_error_relative_to_max_abs_expected
        : PRECISION_TOLERANCE[weights];
    expect(relativeError(Float32Array.from(result), f.expected)).toBeLessThanOrEqual(tolerance);
  });
}

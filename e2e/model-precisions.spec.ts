// Each weight precision's graph for WebGPU (exported by `consisid export --device webgpu`) runs in
// Chromium on onnxruntime-web's WebGPU provider (SwiftShader here) with every node on WebGPU, and
// stays within the precision's tolerance of the reference.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type * as OrtWeb from 'onnxruntime-web';
import { main } from '../src/model/cli.ts';
import {
  PRECISION_TOLERANCE,
  fixtureDir,
  loadFixture,
  readNamedTensors,
  relativeError,
} from '../src/model/test-support/fixtures.ts';

const CASE = 'tiny-face';
const SHAPE = 'batch=1,frames=2,height=6,width=8,text=7,vit=9,id-batch=1';
const ORT_DIST = path.resolve('node_modules/onnxruntime-web/dist');
const dir = mkdtempSync(path.join(tmpdir(), 'model-precisions-'));

test.describe.configure({ mode: 'serial' });
test.setTimeout(240_000);
test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

for (const weights of ['float32', 'int8', 'int4'] as const) {
  test(`${weights}: all nodes on WebGPU, within ${weights === 'float32' ? 'the case tolerance' : PRECISION_TOLERANCE[weights]} of the reference`, async ({
    page,
  }) => {
    const lines: string[] = [];
    expect(
      await main(
        [
          'export',
          '--model',
          fixtureDir(CASE),
          '--out',
          path.join(dir, `${weights}.onnx`),
          '--weights',
          weights,
          '--device',
          'webgpu',
          '--shape',
          SHAPE,
          '--external-data',
        ],
        (l) => lines.push(l),
      ),
      lines.join('\n'),
    ).toBe(0);
    await page.route('**/__model-check/**', async (route) => {
      const name = new URL(route.request().url()).pathname.split('/__model-check/')[1]!;
      const file = name.startsWith('ort/') ? path.join(ORT_DIST, name.slice(4)) : path.join(dir, name);
      const type = file.endsWith('.mjs')
        ? 'text/javascript'
        : file.endsWith('.wasm')
          ? 'application/wasm'
          : 'application/octet-stream';
      await route.fulfill({ body: readFileSync(file), contentType: type });
    });
    const log: string[] = [];
    page.on('console', (m) => log.push(m.text()));
    await page.goto('/');
    const feeds = Object.fromEntries(
      [...readNamedTensors(path.join(fixtureDir(CASE), 'inputs.safetensors'))].map(([k, t]) => [
        k,
        { data: Array.from(t.data as Float32Array, Number), dims: t.shape },
      ]),
    );
    const result = await page.evaluate(
      async ({ weights, feeds }) => {
        const url = '/__model-check/ort/ort.all.min.mjs';
        const ort = (await import(/* @vite-ignore */ url)) as typeof OrtWeb;
        ort.env.wasm.wasmPaths = '/__model-check/ort/';
        ort.env.wasm.numThreads = 1;
        const session = await ort.InferenceSession.create(`/__model-check/${weights}.onnx`, {
          executionProviders: ['webgpu'],
          logSeverityLevel: 0,
          externalData: [{ path: `${weights}.onnx.data`, data: `/__model-check/${weights}.onnx.data` }],
        });
        const inputs: Record<string, OrtWeb.Tensor> = {};
        for (const [k, v] of Object.entries(feeds))
          inputs[k] = new ort.Tensor('float32', Float32Array.from(v.data), v.dims);
        const out = await session.run(inputs);
        const data = Array.from(out.sample!.data as Float32Array);
        await session.release();
        return data;
      },
      { weights, feeds },
    );
    expect(
      log.some((l) => l.includes('All nodes placed on [JsExecutionProvider]')),
      log.filter((l) => /placed|assigned/.test(l)).join('\n'),
    ).toBe(true);
    const f = loadFixture(CASE);
    const tolerance =
      weights === 'float32'
        ? f.meta.tolerance.max_abs_error_relative_to_max_abs_expected
        : PRECISION_TOLERANCE[weights];
    expect(relativeError(Float32Array.from(result), f.expected)).toBeLessThanOrEqual(tolerance);
  });
}

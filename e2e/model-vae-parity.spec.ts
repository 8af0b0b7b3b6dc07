// The VAE golden cases (fixtures/cogvideox-vae, float64 reference) decoded in Chromium by the
// library's decoder on onnxruntime-web, on WASM and on WebGPU (SwiftShader here), each within the
// case's tolerance. The errors go to the test's annotations (docs/vae.md has them).
import { expect, test } from '@playwright/test';
import { relativeError } from '../src/model/io/tensor.ts';
import { loadVaeCase, VAE_CASES, vaeCaseDir } from '../src/model/models/vae/test-fixtures.ts';
import { decodeWithPage, startVaePageServer, type VaePageServer } from './vae-page-support.ts';

// The config starts servers on E2E_PORT .. +3 (playwright.config.ts), other specs take +4 and +5.
const PORT = Number(process.env.E2E_PORT ?? 4790) + 6;

test.describe.configure({ mode: 'serial' });
// SwiftShader compiles a WebGPU shader per kernel shape
test.setTimeout(300_000);

for (const name of VAE_CASES) {
  let server: VaePageServer | undefined;
  test.describe(name, () => {
    test.beforeAll(async () => {
      server = await startVaePageServer(PORT, vaeCaseDir(name));
    });
    test.afterAll(() => server?.close());

    for (const device of ['wasm', 'webgpu'] as const)
      test(`${name} on ${device} in Chromium: within the case's tolerance`, async ({ page }) => {
        const c = loadVaeCase(name);
        const out = await decodeWithPage(page, server!, {
          device,
          latents: { data: Array.from(c.latents.data), dims: [...c.latents.dims] },
          sample: true,
        });
        expect(out.dims).toEqual(c.expected.dims);
        const error = relativeError(out.sample!, c.expected.data);
        test.info().annotations.push({ type: 'relative error', description: `${name} ${device}: ${error}` });
        console.log(`${name} on ${device}: ${error.toExponential(2)}`);
        expect(error).toBeLessThanOrEqual(c.tolerance);
      });
  });
}

// Model preview: the demo checkpoints from the mock hub run in the browser on WebGPU (SwiftShader)
// and WASM, and agree with the Node path (model library + onnxruntime-node) on the same inputs.
import { expect, test, type Page, type Request } from '@playwright/test';
import { ConsisIDTransformer3DModel } from '../src/model/node.ts';
import { forwardArgs, generateInputs, randomTensor, type F32Tensor } from '../src/model/pipeline/inputs.ts';
import { defaultSpec, type InputSpec } from '../src/model/graph/input-spec.ts';
import { relativeError } from '../src/model/io/tensor.ts';
import { writeSafetensors } from '../src/model/io/safetensors/write.ts';
import { PRECISION_TOLERANCE } from '../src/model/test-support/fixtures.ts';
import { runPreview } from '../src/model/pipeline/run-preview.ts';
import { downloadedOutput, openPreview } from './preview-support.ts';
import { expectAccessible, signIn } from './support.ts';

const TINY = 'consisid-community/consisid-tiny';
const FACE = 'consisid-community/consisid-preview-s';
const TOLERANCE = 1e-3;

test.describe.configure({ mode: 'serial' });
// SwiftShader compiles a WebGPU shader per kernel shape: a first WebGPU pass takes tens of seconds
test.setTimeout(360_000);

interface Reference {
  spec: InputSpec;
  shape: number[];
  data: Float32Array;
}

const references = new Map<string, Promise<Reference>>();

/** the Node path: the same checkpoint from the same hub, the same generated inputs, onnxruntime-node */
function nodeReference(
  baseURL: string,
  repoId: string,
  override: Partial<InputSpec> = {},
  text?: F32Tensor,
): Promise<Reference> {
  const key = `${repoId} ${JSON.stringify(override)} ${text ? 'uploaded text' : ''}`;
  let r = references.get(key);
  if (!r) {
    r = (async () => {
      const model = await ConsisIDTransformer3DModel.fromPretrained(repoId, {
        hubUrl: baseURL,
        subfolder: 'transformer',
        device: 'cpu',
      });
      const spec = { ...defaultSpec(model.config), ...override };
      const inputs = generateInputs(model.config, spec);
      if (text) inputs.encoder_hidden_states = text;
      const out = await model.forward({ ...forwardArgs(model.config, inputs), return_dict: true });
      await model.release();
      return { spec, shape: out.sample.shape, data: out.sample.data as Float32Array };
    })();
    references.set(key, r);
  }
  return r;
}

async function inspect(page: Page) {
  await page.getByRole('button', { name: 'Inspect' }).click();
  await expect(page.getByTestId('checkpoint-summary')).toBeVisible();
}

async function runForward(page: Page, expectedProvider: 'webgpu' | 'wasm') {
  await page.getByRole('button', { name: 'Run forward pass' }).click();
  await expect(page.getByTestId('provider-used')).toHaveText(expectedProvider, { timeout: 300_000 });
  await expect(page.getByTestId('preview-error')).toHaveCount(0);
}

async function expectMatchesReference(page: Page, ref: Reference, provider: string) {
  const summary = JSON.parse((await page.getByTestId('output-summary').textContent()) ?? '{}') as {
    shape: number[];
    provider: string;
  };
  expect(summary.provider).toBe(provider);
  expect(summary.shape).toEqual(ref.shape);
  const out = await downloadedOutput(page);
  expect(out.shape).toEqual(ref.shape);
  const err = relativeError(out.data, ref.data);
  expect(err, `${provider}: max|browser - node| / max|node| = ${err}`).toBeLessThanOrEqual(TOLERANCE);
}

/** the complete entries of the browser cache, by file name (with `#converted-<precision>` for a converted file) */
const storedEntries = (page: Page) =>
  page.evaluate(async () => {
    type Dir = FileSystemDirectoryHandle & { values(): AsyncIterable<FileSystemHandle> };
    const urls: string[] = [];
    const root = (await (
      await navigator.storage.getDirectory()
    ).getDirectoryHandle('hub-console-preview-weights-v4')) as Dir;
    for await (const urlDir of root.values())
      for await (const version of (urlDir as Dir).values()) {
        const meta = JSON.parse(await (await (await (version as Dir).getFileHandle('meta.json')).getFile()).text()) as {
          url: string;
          complete: boolean;
        };
        if (meta.complete) urls.push(meta.url.replace(/^.*\//, ''));
      }
    return urls.sort();
  });

const isWeightGet = (r: Request) =>
  r.method() === 'GET' &&
  /\/resolve\/[^/]+\/transformer\/diffusion_pytorch_model[^/]*\.safetensors$/.test(new URL(r.url()).pathname);

test('tiny checkpoint: config, size and dtype before loading; WebGPU and WASM match the Node path', async ({
  page,
  baseURL,
}) => {
  const ref = nodeReference(baseURL!, TINY);
  await openPreview(page, TINY, 'auto');
  await expect(page.getByTestId('provider-reason')).toHaveText(/^WebGPU: adapter /);
  await expect(page.getByTestId('adapter-info')).toContainText('swiftshader');
  await inspect(page);
  await expect(page.getByTestId('param-count')).toHaveText(/^\d{1,3}(,\d{3})*$/);
  await expect(page.getByTestId('weight-dtype')).toHaveText('F32');
  await expect(page.getByTestId('download-size')).toContainText('in 1 file');
  await expect(page.getByTestId('config-summary')).toContainText('num_layers');
  await expect(page.getByTestId('cache-state')).toHaveText('not cached');

  await runForward(page, 'webgpu');
  await expect(page.getByTestId('timings')).toContainText('session creation');
  await expect(page.getByRole('img', { name: /Latent frame 1 of 2/ })).toBeVisible();
  await expectMatchesReference(page, await ref, 'webgpu');
  await expectAccessible(page);

  await page.getByLabel('Provider', { exact: true }).selectOption('wasm');
  await runForward(page, 'wasm');
  await expectMatchesReference(page, await ref, 'wasm');
});

test('a reload uses the browser cache: no second weight download', async ({ page, baseURL }) => {
  const ref = nodeReference(baseURL!, TINY);
  const weightGets: string[] = [];
  page.on('request', (r) => {
    if (isWeightGet(r) && !r.headers()['range']) weightGets.push(r.url());
  });
  await openPreview(page, TINY, 'wasm');
  await inspect(page);
  // the previous test filled this browser context's cache? Each test has a fresh context: download once here.
  await runForward(page, 'wasm');
  expect(weightGets).toHaveLength(1);
  await expectMatchesReference(page, await ref, 'wasm');

  const afterReload: string[] = [];
  page.on('request', (r) => {
    if (isWeightGet(r)) afterReload.push(`${r.method()} ${r.url()} ${r.headers()['range'] ?? ''}`);
  });
  await page.reload();
  await expect(page.getByTestId('provider-reason')).not.toHaveText(/Checking/);
  await inspect(page);
  await expect(page.getByTestId('cache-state')).toHaveText('all files cached');
  await runForward(page, 'wasm');
  await expectMatchesReference(page, await ref, 'wasm');
  expect(afterReload, 'weight requests after the reload').toEqual([]);

  // clearing stops the worker that holds the cached files, then removes them: the next inspection finds none
  await page.getByRole('button', { name: 'Clear browser cache' }).click();
  await expect(page.getByTestId('preview-notice')).toHaveText('Removed 1 cached file from the browser cache.');
  await expect(page.getByTestId('cache-state')).toHaveText('not cached');
  await inspect(page);
  await expect(page.getByTestId('cache-state')).toHaveText('not cached');
});

test('identity-module checkpoint (sharded F16, rotary) runs and matches the Node path', async ({ page, baseURL }) => {
  const ref = nodeReference(baseURL!, FACE);
  await openPreview(page, FACE, 'wasm');
  await inspect(page);
  await expect(page.getByTestId('weight-dtype')).toHaveText('F16');
  await expect(page.getByTestId('download-size')).toContainText('in 2 files');
  await expect(page.getByLabel('Identity inputs')).toBeVisible();
  await runForward(page, 'wasm');
  await expect(page.getByTestId('timings')).toContainText('rotary tables');
  await expectMatchesReference(page, await ref, 'wasm');

  // WebGPU too, with fewer ViT tokens per identity scale (SwiftShader compiles a shader per shape)
  const small = nodeReference(baseURL!, FACE, { vitTokens: 16 });
  await page.getByLabel('ViT tokens per identity scale').fill('16');
  await page.getByLabel('Provider', { exact: true }).selectOption('webgpu');
  await runForward(page, 'webgpu');
  await expectMatchesReference(page, await small, 'webgpu');
});

test('uploaded text embeddings are used; a bad upload or repo gets a clear message', async ({ page, baseURL }) => {
  const text = randomTensor(99, 'uploaded', [1, 5, 32]);
  const ref = nodeReference(baseURL!, TINY, { textLength: 5 }, text);
  await openPreview(page, TINY, 'wasm');
  await inspect(page);
  const upload = page.getByLabel('Text embeddings');
  await upload.setInputFiles({
    name: 'bad.safetensors',
    mimeType: 'application/octet-stream',
    buffer: Buffer.from(writeSafetensors({ encoder_hidden_states: randomTensor(1, 'x', [1, 5, 7]) })),
  });
  await expect(
    page.getByRole('alert').filter({ hasText: 'bad.safetensors: text embeddings must be (1, L, 32); got (1, 5, 7)' }),
  ).toBeVisible();
  await upload.setInputFiles({
    name: 'text.safetensors',
    mimeType: 'application/octet-stream',
    buffer: Buffer.from(writeSafetensors({ encoder_hidden_states: text })),
  });
  await expect(page.getByLabel('Text length')).toHaveValue('5');
  await runForward(page, 'wasm');
  await expectMatchesReference(page, await ref, 'wasm');

  await page.getByLabel('Repository').fill('consisid-community/no-such-model');
  await page.getByRole('button', { name: 'Inspect' }).click();
  await expect(page.getByTestId('preview-error')).toContainText('config.json: not found on the hub (HTTP 404)');
});

test('weight precisions: sizes before loading, int8 runs on WASM, its error against float32 on request', async ({
  page,
}) => {
  await openPreview(page, FACE, 'webgpu');
  // SwiftShader has no shader-f16: WebGPU keeps float32 and says why
  await expect(page.getByTestId('adapter-info')).toContainText('shader-f16 no');
  await expect(page.getByText(/This adapter has no shader-f16: WebGPU runs float32/)).toBeVisible();
  await page.getByLabel('Provider', { exact: true }).selectOption('wasm');
  await inspect(page);
  const weights = page.getByLabel('Weights');
  await expect(weights).toHaveValue('float32');
  const sized = /\(([\d.]+) (B|KB|MB|GB)\)$/;
  const kb = async (precision: string) => {
    // the sizes come with the fit, planned in a worker
    const option = weights.locator(`option[value="${precision}"]`);
    await expect(option).toHaveText(sized);
    const [, n, unit] = sized.exec((await option.textContent())!.trim())!;
    return Number(n) * { B: 1e-3, KB: 1, MB: 1e3, GB: 1e6 }[unit as 'B']!;
  };
  const [f32, f16, int8, int4] = [await kb('float32'), await kb('float16'), await kb('int8'), await kb('int4')];
  expect(f16).toBeLessThan(0.6 * f32);
  expect(int8).toBeLessThan(0.65 * f32);
  expect(int4).toBeLessThan(int8);

  // float32 weights are what the comparison runs: nothing to compare
  const compare = page.getByLabel('Compare with float32');
  await expect(compare).toBeDisabled();
  await weights.selectOption('int8');
  await compare.check();
  await runForward(page, 'wasm');
  const summary = JSON.parse((await page.getByTestId('output-summary').textContent()) ?? '{}') as {
    weights: string;
    errorVsFloat32: number;
  };
  expect(summary.weights).toBe('int8');
  // the model's stated int8 tolerance (src/model/test-support/fixtures.ts), and not float32 itself
  expect(summary.errorVsFloat32).toBeGreaterThan(0);
  expect(summary.errorVsFloat32).toBeLessThanOrEqual(PRECISION_TOLERANCE.int8);
  await expect(page.getByTestId('precision-error')).toHaveText(summary.errorVsFloat32.toExponential(2));

  // the int8 weights were converted as they downloaded and kept in the browser cache: a second visit
  // with the same precision downloads no weight byte (the headers come from the float32 run's chunks)
  const first = await downloadedOutput(page);
  const weightRequests: string[] = [];
  page.on('request', (r) => {
    if (isWeightGet(r)) weightRequests.push(`${r.url()} ${r.headers()['range'] ?? ''}`);
  });
  await page.reload();
  await expect(page.getByTestId('provider-reason')).not.toHaveText(/Checking/);
  await page.getByLabel('Provider', { exact: true }).selectOption('wasm');
  await inspect(page);
  await weights.selectOption('int8');
  if (await compare.isChecked()) await compare.uncheck();
  await runForward(page, 'wasm');
  expect((await downloadedOutput(page)).data).toEqual(first.data);
  expect(weightRequests, 'weight requests of the second int8 visit').toEqual([]);
  // what the run read: each shard converted to int8, stored whole beside the float32 run's chunks
  const stored = await storedEntries(page);
  expect(stored.filter((u) => u.endsWith('#converted-int8'))).toEqual([
    'diffusion_pytorch_model-00001-of-00002.safetensors#converted-int8',
    'diffusion_pytorch_model-00002-of-00002.safetensors#converted-int8',
  ]);
  // the checkpoint panel shows the int8 conversion beside the float32 run's chunks; removing the
  // checkpoint takes both, and leaves no entry of it in the browser's file storage
  await expect(page.getByTestId('cache-state')).toHaveText('all files cached');
  await expect(page.getByTestId('cache-converted')).toHaveText(/^int8 \([\d.]+ [KM]B\)$/);
  await page.getByRole('button', { name: 'Remove this checkpoint from the browser cache' }).click();
  await expect(page.getByTestId('preview-notice')).toHaveText('Removed 2 cached files from the browser cache.');
  await expect(page.getByTestId('cache-state')).toHaveText('not cached');
  await expect(page.getByTestId('cache-converted')).toHaveText('none');
  const left = await page.evaluate(async () => {
    type Dir = FileSystemDirectoryHandle & { keys(): AsyncIterable<string> };
    const root = (await (
      await navigator.storage.getDirectory()
    ).getDirectoryHandle('hub-console-preview-weights-v4')) as Dir;
    const names: string[] = [];
    for await (const name of root.keys()) names.push(name);
    return names;
  });
  expect(left, 'entries left in the browser cache').toEqual([]);
  await inspect(page);
  await expect(page.getByTestId('cache-converted')).toHaveText('none');
});

/** each stored entry's first chunk whose URL ends with `suffix`, damaged at its size (`flip`) or cut short */
const damageStoredChunk = (page: Page, suffix: string, how: 'truncate' | 'flip') =>
  page.evaluate(
    async ([suffix, how]) => {
      type Dir = FileSystemDirectoryHandle & { values(): AsyncIterable<FileSystemHandle> };
      const root = (await (
        await navigator.storage.getDirectory()
      ).getDirectoryHandle('hub-console-preview-weights-v4')) as Dir;
      for await (const urlDir of root.values())
        for await (const version of (urlDir as Dir).values()) {
          const dir = version as Dir;
          const meta = JSON.parse(await (await (await dir.getFileHandle('meta.json')).getFile()).text()) as {
            url: string;
          };
          if (!meta.url.endsWith(suffix)) continue;
          const chunk = await dir.getFileHandle('0');
          const file = await chunk.getFile();
          const w = await chunk.createWritable({ keepExistingData: true });
          if (how === 'truncate') await w.truncate(file.size - 100);
          else {
            // bytes in the middle of the chunk (tensor data, not the header), same size
            const at = Math.floor(file.size / 2);
            const bytes = new Uint8Array(await file.slice(at, at + 3).arrayBuffer()).map((b) => b ^ 0x5a);
            await w.write({ type: 'write', position: at, data: bytes });
          }
          await w.close();
        }
    },
    [suffix, how] as const,
  );

test('a converted chunk the browser cache cut short is converted anew from the hub: the same output, the entry stored again', async ({
  page,
}) => {
  const converted = 'diffusion_pytorch_model.safetensors#converted-int4';
  await openPreview(page, TINY, 'wasm');
  await inspect(page);
  await page.getByLabel('Weights').selectOption('int4');
  await runForward(page, 'wasm');
  const first = await downloadedOutput(page);
  // a reload lets go of the worker's open cache files; then the stored conversion loses its last bytes
  await page.reload();
  await expect(page.getByTestId('provider-reason')).not.toHaveText(/Checking/);
  expect(await storedEntries(page)).toContain(converted);
  await damageStoredChunk(page, '#converted-int4', 'truncate');
  const weightGets: string[] = [];
  page.on('request', (r) => void (isWeightGet(r) && weightGets.push(r.headers()['range'] ?? '')));
  await page.getByLabel('Provider', { exact: true }).selectOption('wasm');
  await inspect(page);
  await page.getByLabel('Weights').selectOption('int4');
  await runForward(page, 'wasm');
  await expect(page.getByTestId('preview-error')).toHaveCount(0);
  expect((await downloadedOutput(page)).data).toEqual(first.data);
  // the entry found short is converted anew from the hub, into the cache
  expect(weightGets.length, 'the file streamed from the hub again').toBeGreaterThan(1);
  expect(await storedEntries(page)).toEqual([converted]);
});

test('a second int4 visit downloads no weights, only the header its inspection reads; bytes of its stored chunk flipped in place fail the checksum and are converted anew', async ({
  page,
}) => {
  const converted = 'diffusion_pytorch_model.safetensors#converted-int4';
  await openPreview(page, TINY, 'wasm', '&weights=int4');
  await inspect(page);
  await expect(page.getByRole('button', { name: /^Download / })).toBeVisible();
  await runForward(page, 'wasm');
  const first = await downloadedOutput(page);
  // the conversion streamed the file through: none of its chunks were stored
  expect(await storedEntries(page)).toEqual([converted]);

  const weightRequests: string[] = [];
  page.on('request', (r) => {
    if (isWeightGet(r)) weightRequests.push(`${r.url()} ${r.headers()['range'] ?? ''}`);
  });
  const visit = async () => {
    weightRequests.length = 0;
    await page.reload();
    await expect(page.getByTestId('provider-reason')).not.toHaveText(/Checking/);
    await inspect(page);
    await expect(page.getByTestId('download-offer')).toHaveText('converted int4 cached: nothing to download');
    await expect(page.getByRole('button', { name: /^Download / })).toHaveCount(0);
  };
  await visit();
  await runForward(page, 'wasm');
  expect((await downloadedOutput(page)).data).toEqual(first.data);
  // the inspection reads the header from the hub (one Range request from the file's start); the load reads nothing
  expect(weightRequests, 'weight requests of the second int4 visit: inspection and load').toEqual([
    expect.stringMatching(/diffusion_pytorch_model\.safetensors bytes=0-\d+$/),
  ]);
  expect(await storedEntries(page)).toEqual([converted]);

  // bytes changed in place, at the chunk's size: the checksum finds them, the file is converted again
  await damageStoredChunk(page, '#converted-int4', 'flip');
  await visit();
  await runForward(page, 'wasm');
  await expect(page.getByTestId('preview-error')).toHaveCount(0);
  expect((await downloadedOutput(page)).data).toEqual(first.data);
  expect(weightRequests.length, 'the file converted anew comes from the hub').toBeGreaterThan(0);
  expect(await storedEntries(page)).toEqual([converted]);
});

test('?weights= starts the page on that precision (a link, a reload); an unknown one leaves the default', async ({
  page,
}) => {
  await signIn(page, undefined, `/preview?repo=${encodeURIComponent(TINY)}&provider=wasm&weights=int4`);
  await inspect(page);
  await expect(page.getByLabel('Weights')).toHaveValue('int4');
  await page.goto(`/preview?repo=${encodeURIComponent(TINY)}&provider=wasm&weights=fp16`);
  await inspect(page);
  await expect(page.getByLabel('Weights')).toHaveValue('float32');
});

test('a browser cache that cannot keep the weights gives an uncached run and a one-line notice', async ({
  page,
  baseURL,
}) => {
  const ref = nodeReference(baseURL!, TINY);
  // a real refusal: the origin's storage over its quota (as in private mode, or a full disk)
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Storage.overrideQuotaForOrigin', { origin: new URL(baseURL!).origin, quotaSize: 1000 });
  await openPreview(page, TINY, 'wasm');
  await inspect(page);
  await runForward(page, 'wasm');
  const notice = page.getByTestId('preview-notice');
  await expect(notice).toHaveText(
    /^The browser cache could not keep the weights \(.+\): they stream from the hub uncached\.$/,
  );
  expect((await notice.textContent())!.includes('\n')).toBe(false);
  await expectMatchesReference(page, await ref, 'wasm');
  await expect(page.getByTestId('cache-state')).toHaveText('not cached');
});

test('the weight download shows progress and can be cancelled', async ({ page }) => {
  // hold the weight file's full GET so the download is still running when Cancel is pressed
  await page.route(/\/transformer\/diffusion_pytorch_model\.safetensors$/, async (route) => {
    if (route.request().method() !== 'GET' || route.request().headers()['range']) return route.continue();
    await new Promise((r) => setTimeout(r, 5_000));
    await route.continue().catch(() => undefined);
  });
  await openPreview(page, TINY, 'wasm');
  await inspect(page);
  await page.getByRole('button', { name: /^Download / }).click();
  await expect(page.getByTestId('download-progress').getByRole('progressbar')).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('preview-notice')).toHaveText('Download cancelled; nothing was loaded.');
  await expect(page.getByTestId('cache-state')).toHaveText('not cached');
  await expect(page.getByTestId('provider-used')).toHaveCount(0);
});

test('an inspection the hub does not answer can be cancelled', async ({ page }) => {
  await page.route(/\/transformer\/config\.json$/, async (route) => {
    await new Promise((r) => setTimeout(r, 30_000));
    await route.continue().catch(() => undefined);
  });
  await openPreview(page, TINY, 'wasm');
  await page.getByRole('button', { name: 'Inspect' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Reading config.json' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Inspect' })).toBeDisabled();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('preview-notice')).toHaveText('Inspection cancelled.');
  await expect(page.getByRole('button', { name: 'Inspect' })).toBeEnabled();
  await expect(page.getByTestId('checkpoint-summary')).toHaveCount(0);
});

test('denoising loop shows each step and can be cancelled', async ({ page }) => {
  await openPreview(page, TINY, 'wasm');
  await inspect(page);
  await page.getByLabel('Run mode').selectOption('denoise');
  await page.getByLabel('Steps', { exact: true }).fill('3');
  await page.getByLabel('Guidance scale').fill('2');
  await page.getByRole('button', { name: 'Run 3 denoising steps' }).click();
  await expect(page.getByTestId('provider-used')).toHaveText('wasm', { timeout: 120_000 });
  await expect(page.getByTestId('step-list').getByRole('listitem')).toHaveCount(3);
  const summary = JSON.parse((await page.getByTestId('output-summary').textContent()) ?? '{}') as {
    mode: string;
    shape: number[];
  };
  expect(summary.mode).toBe('denoise');
  // 3 steps with guidance: 6 forward passes
  await expect(page.getByTestId('forward-times').locator('li')).toHaveCount(6);
  await page.getByRole('slider', { name: /Frame/ }).fill('1');
  await expect(page.getByRole('img', { name: /Latent frame 2 of 2/ })).toBeVisible();

  // cancel: a WebGPU run (its first pass compiles shaders for seconds on SwiftShader) is stopped
  // by terminating the worker; the page stays usable
  await page.getByLabel('Provider', { exact: true }).selectOption('webgpu');
  await page.getByRole('button', { name: 'Run 3 denoising steps' }).click();
  await expect(page.getByTestId('preview-status')).toHaveText(/^(Running|Loading)/);
  // the model runs in the worker: the page still answers and takes input while it runs
  const t0 = Date.now();
  await page.getByText('Full config.json').click();
  await expect(page.getByText('"_class_name": "ConsisIDTransformer3DModel"')).toBeVisible();
  expect(Date.now() - t0).toBeLessThan(3_000);
  await expect(page.getByTestId('preview-status')).toHaveText(/^(Running|Loading)/);
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('preview-notice')).toContainText(/cancelled/);
  await expect(page.getByRole('button', { name: 'Run 3 denoising steps' })).toBeEnabled();
});

/** the Node path of a denoising run: the host loop (JS scheduler) on onnxruntime-node CPU */
async function nodeDenoise(baseURL: string, repoId: string, steps: number, guidance: number) {
  const model = await ConsisIDTransformer3DModel.fromPretrained(repoId, {
    hubUrl: baseURL,
    subfolder: 'transformer',
    device: 'cpu',
  });
  try {
    const timings = { loadMs: 0, graphBuildMs: [], sessionCreateMs: [], forwardMs: [], rotaryMs: 0 };
    const req = {
      spec: defaultSpec(model.config),
      mode: 'denoise' as const,
      steps,
      guidance,
      uploads: {},
      compare: false,
    };
    return await runPreview(model.config, req, timings, {
      forward: async (args) => (await model.forward({ ...args, return_dict: true })).sample,
      stage: () => undefined,
      step: () => undefined,
    });
  } finally {
    await model.release();
  }
}

test('WebGPU denoising in 2 segments keeps the latents on the GPU: the same output, a fraction of the read-back', async ({
  page,
  baseURL,
}) => {
  const ref = nodeDenoise(baseURL!, TINY, 3, 2);
  // a heap budget of 195 KiB a segment: the tiny checkpoint's 238 KiB of weights split after block 0 (127 KiB)
  await openPreview(page, TINY, 'webgpu', '&segmentHeap=200000');
  await inspect(page);
  await page.getByLabel('Run mode').selectOption('denoise');
  await page.getByLabel('Steps', { exact: true }).fill('3');
  await page.getByLabel('Guidance scale').fill('2');
  const onDevice = page.getByLabel('Latents stay on the device');
  await expect(onDevice).toBeChecked();
  const run = async () => {
    await page.getByRole('button', { name: 'Run 3 denoising steps' }).click();
    await expect(page.getByTestId('provider-used')).toHaveText('webgpu', { timeout: 300_000 });
    await expect(page.getByTestId('preview-error')).toHaveCount(0);
    await expect(page.getByTestId('step-list').getByRole('listitem')).toHaveCount(3);
    await expect(page.getByTestId('segments-used')).toHaveText('2');
    const summary = JSON.parse((await page.getByTestId('output-summary').textContent()) ?? '{}') as {
      readback: { count: number; bytes: number };
    };
    const out = await downloadedOutput(page);
    const { sample, shape } = await ref;
    expect(out.shape).toEqual(shape);
    const err = relativeError(out.data, sample);
    expect(err, `max|browser - node| / max|node| = ${err}`).toBeLessThanOrEqual(TOLERANCE);
    return { ...summary.readback, err };
  };
  const device = await run();
  await onDevice.uncheck();
  const host = await run();
  const bytes = (await ref).sample.byteLength;
  test.info().annotations.push({
    type: 'readback',
    description: `latents on the GPU: ${device.count} read-backs, ${device.bytes} B (error ${device.err}); every output read back: ${host.count}, ${host.bytes} B (error ${host.err}); latents ${bytes} B`,
  });
  // the host loop reads back both passes of every step; the device loop at most each step once (the last is the result)
  expect(host).toMatchObject({ count: 6, bytes: 6 * bytes });
  expect(device.count).toBeGreaterThanOrEqual(1);
  expect(device.count).toBeLessThanOrEqual(3);
  expect(device.bytes).toBe(device.count * bytes);
});

test('a browser without WebGPU gets WASM and a one-line explanation', async ({ page, baseURL }) => {
  const ref = nodeReference(baseURL!, TINY);
  await page.addInitScript(() => {
    delete (Navigator.prototype as { gpu?: unknown }).gpu;
  });
  await openPreview(page, TINY, 'auto');
  const reason = page.getByTestId('provider-reason');
  await expect(reason).toHaveText(/^WASM: this browser does not offer WebGPU/);
  expect((await reason.textContent())!.includes('\n')).toBe(false);
  await expect(page.getByRole('option', { name: /WebGPU \(not available\)/ })).toBeDisabled();
  await inspect(page);
  await runForward(page, 'wasm');
  await expectMatchesReference(page, await ref, 'wasm');
  await expectAccessible(page);
});

test('other pages never download onnxruntime-web, the worker or the model code', async ({ page }) => {
  const scripts: string[] = [];
  const bodies: Promise<string>[] = [];
  page.on('response', (r) => {
    const u = new URL(r.url());
    if (u.pathname.startsWith('/assets/')) {
      scripts.push(u.pathname);
      if (u.pathname.endsWith('.js')) bodies.push(r.text().catch(() => ''));
    }
  });
  await signIn(page, undefined, '/inbox');
  await page.goto('/settings');
  await page.goto('/storage');
  await page.waitForLoadState('networkidle');
  expect(scripts.filter((s) => /\.wasm$|(model|plan)\.worker|ort-/.test(s))).toEqual([]);
  for (const b of await Promise.all(bodies)) {
    expect(b.includes('InferenceSession')).toBe(false);
    expect(b.includes('consisid_transformer_3d')).toBe(false);
  }
});

// The clip's WebM in Chromium: clip-webm.ts, bundled here and served on a page of its own on the console's
// origin (a secure context, so WebCodecs is there), encodes three frames into a file that starts with the EBML
// magic and that a <video> element reads back with the clip's size and length.
import { expect, test } from '@playwright/test';
import { build, type Rollup } from 'vite';
import type * as ClipWebm from '../src/features/preview/clip-webm.ts';

test('three frames at 8 fps make a WebM that a video element reads back', async ({ page }) => {
  const entry = 'src/features/preview/clip-webm.ts';
  const [bundle] = (await build({
    configFile: false,
    logLevel: 'silent',
    build: { write: false, minify: false, lib: { entry, formats: ['es'] } },
  })) as Rollup.RollupOutput[];
  const code = bundle!.output[0].code;
  await page.route('**/__clip/**', (route) =>
    route.fulfill(
      route.request().url().endsWith('.js')
        ? { contentType: 'text/javascript', body: code }
        : { contentType: 'text/html', body: '<!doctype html><title>clip</title>' },
    ),
  );
  await page.goto('/__clip/index.html');
  const got = await page.evaluate(async (url) => {
    const { encodeWebm } = (await import(url)) as typeof ClipWebm;
    const [width, height] = [64, 48];
    // a moving gradient, so each frame differs
    const frames = [0, 1, 2].map((f) =>
      Uint8ClampedArray.from({ length: width * height * 4 }, (_, i) => (i % 4 === 3 ? 255 : (i * 7 + f * 60) % 256)),
    );
    const blob = await encodeWebm({ width, height, frames }, 8);
    const head = [...new Uint8Array(await blob.slice(0, 4).arrayBuffer())];
    const video = document.createElement('video');
    video.src = URL.createObjectURL(blob);
    await new Promise((ok, fail) => {
      video.onloadedmetadata = ok;
      video.onerror = () => fail(new Error(`the video element cannot read it: ${video.error?.message}`));
    });
    return {
      head,
      size: blob.size,
      type: blob.type,
      width: video.videoWidth,
      height: video.videoHeight,
      duration: video.duration,
    };
  }, '/__clip/clip-webm.js');
  expect(got.head).toEqual([0x1a, 0x45, 0xdf, 0xa3]);
  expect(got.type).toBe('video/webm');
  expect(got.size).toBeGreaterThan(200);
  expect(got.size).toBeLessThan(100_000);
  expect([got.width, got.height]).toEqual([64, 48]);
  expect(got.duration).toBeCloseTo(3 / 8, 2);
});

import { defineConfig } from '@playwright/test';

const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const port = Number(process.env.E2E_PORT ?? 4790);
/** The spec-only hub's dashboard listens on the next port. */
const specOnlyPort = port + 1;
const SPEC_ONLY_SPECS = /spec-only\.spec\.ts$/;
/** The console of `npm start -- --hub-url` on the port after, passing requests to a hub without CORS on the next. */
const proxiedPort = port + 2;
const noCorsHubPort = port + 3;
const HUB_PROXY_SPECS = /hub-proxy\.spec\.ts$/;
/**
 * The model preview's specs: they only read the hub's demo checkpoints (or start hubs of their own), so
 * they run beside the other pages' specs, which change the hub's state and run one file at a time.
 */
const PREVIEW_SPECS = /\/(preview|precision|model)[\w-]*\.spec\.ts$/;
/** Signs every demo token in once per hub; the specs reuse those sessions (e2e/support.ts signIn). */
const AUTH_SETUP = /auth\.setup\.ts$/;

function server(p: number, flags: string, script = 'serve.ts --fresh') {
  return {
    command: `node --import tsx scripts/${script} --port ${p}${flags}`,
    url: `http://127.0.0.1:${p}/api/health`,
    reuseExistingServer: false,
    timeout: 180_000,
    // The banner lists the demo tokens: keep it out of test logs (errors still come through stderr).
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
  };
}

const browserArgs = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
// SwiftShader gives a real WebGPU adapter on machines without a GPU.
export const chromiumArgs = [
  ...browserArgs,
  '--enable-unsafe-webgpu',
  '--enable-features=Vulkan',
  '--use-angle=swiftshader',
  '--use-webgpu-adapter=swiftshader',
  '--enable-unsafe-swiftshader',
];
/** The model preview's specs (and the screenshots) run on SwiftShader's WebGPU. */
export const webgpuLaunch = { executablePath: chromiumPath, args: chromiumArgs };
/**
 * The other pages need no GPU: without one Chromium draws them with its software rasterizer, which
 * costs less CPU than drawing through SwiftShader (the preview page there offers WASM).
 */
const pageLaunch = { executablePath: chromiumPath, args: [...browserArgs, '--disable-gpu'] };

export default defineConfig({
  testDir: 'e2e',
  timeout: 120_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  // Two streams of spec files at a time: the pages, and the model preview (each project one worker).
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: pageLaunch,
    trace: 'off',
  },
  projects: [
    { name: 'sign-in', use: { browserName: 'chromium' }, testMatch: AUTH_SETUP },
    {
      name: 'chromium',
      use: { browserName: 'chromium' },
      testIgnore: [SPEC_ONLY_SPECS, HUB_PROXY_SPECS, PREVIEW_SPECS],
      dependencies: ['sign-in'],
      workers: 1,
    },
    {
      name: 'preview',
      use: { browserName: 'chromium', launchOptions: webgpuLaunch },
      testMatch: PREVIEW_SPECS,
      dependencies: ['sign-in'],
      workers: 1,
    },
    // Every page against a hub with only what the real hub has (mock-only routes answer 404).
    {
      name: 'spec-only sign-in',
      use: { browserName: 'chromium', baseURL: `http://127.0.0.1:${specOnlyPort}` },
      testMatch: AUTH_SETUP,
    },
    {
      name: 'spec-only',
      use: { browserName: 'chromium', baseURL: `http://127.0.0.1:${specOnlyPort}` },
      testMatch: SPEC_ONLY_SPECS,
      dependencies: ['spec-only sign-in'],
    },
    // The dashboard walk through the console's own server, against a spec-only hub that sends no CORS headers.
    {
      name: 'hub-proxy',
      use: { browserName: 'chromium', baseURL: `http://127.0.0.1:${proxiedPort}` },
      testMatch: HUB_PROXY_SPECS,
    },
  ],
  webServer: [
    // The built dashboard served by the same process as a fresh, in-memory mock hub.
    server(port, ''),
    server(specOnlyPort, ' --spec-only'),
    server(noCorsHubPort, ' --spec-only --no-cors', 'hub.ts'),
    server(proxiedPort, ` --hub-url http://127.0.0.1:${noCorsHubPort}`, 'serve.ts'),
  ],
});

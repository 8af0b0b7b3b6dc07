import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { besideLine, storageLine, vaeFits } from './panels/fit-panel.tsx';
import { formatBytes } from '../../components/ui/format.ts';
import { planPreviewDecode } from '../../model/pipeline/decode-preview.ts';
import { adapterCaps, defaultPrecision, probeWebGPU, type ProviderProbe } from './provider.ts';
import { validateSpec } from './spec-errors.ts';
import { parseConfig } from '../../model/graph/config.ts';
import { defaultSpec, inputLimits, specShape as fitShape } from '../../model/graph/input-spec.ts';
import { planFit } from '../../model/plan/fit.ts';
import { WEBGPU_DEFAULT_LIMITS, withDefaultLimits } from '../../model/plan/plan.ts';
import { WEIGHT_PRECISIONS } from '../../model/plan/precision.ts';
import { CONSISID_PREVIEW_S_CONFIG, DEMO_VAE_CONFIG } from '../../model/models/consisid/demo-checkpoints.ts';
import { CONSISID_CONFIG } from '../../model/models/consisid/named-configs.ts';
import type { ConsisIDConfigInput } from '../../model/graph/config.ts';
import { RELEASED_VAE_CONFIG } from '../../model/models/vae/random-vae.ts';

/** the released ConsisID's config at 2 of its 42 layers (the shape rules are the same) */
const RELEASED: ConsisIDConfigInput = { ...CONSISID_CONFIG, num_layers: 2 };

const probe = (p: Partial<ProviderProbe>): ProviderProbe => ({
  webgpu: true,
  shaderF16: false,
  subgroups: false,
  subgroupMinSize: null,
  limits: WEBGPU_DEFAULT_LIMITS,
  reason: '',
  adapter: null,
  ...p,
});

describe('the fit of a run before downloading', () => {
  it('learned positional embeddings pin the text length too: the form takes the default run of the released config', () => {
    const config = parseConfig(RELEASED);
    const spec = defaultSpec(config);
    expect(spec.textLength).toBe(226);
    expect(validateSpec(inputLimits(config), config.is_train_face, spec)).toEqual([]);
    expect(validateSpec(inputLimits(config), config.is_train_face, { ...spec, textLength: 16 })).toEqual([
      'text length must be an integer from 226 to 226',
    ]);
  });

  it('the default precision is the old default where it fits, else the closest to float32 that fits', () => {
    const precision = fc.constantFrom(...WEIGHT_PRECISIONS);
    fc.assert(
      fc.property(
        fc.constantFrom('webgpu' as const, 'wasm' as const),
        fc.boolean(),
        fc.uniqueArray(precision),
        (device, shaderF16, refused) => {
          const p = probe({ shaderF16 });
          const fits = WEIGHT_PRECISIONS.map((weights) => ({ weights, fits: !refused.includes(weights) }));
          const chosen = defaultPrecision(device, p, fits);
          const old = defaultPrecision(device, p);
          if (!refused.includes(old)) expect(chosen).toBe(old);
          else if (refused.length < WEIGHT_PRECISIONS.length) {
            expect(refused).not.toContain(chosen);
            // nothing that fits comes before it in float32, float16, int8, int4
            const order = ['float32', 'float16', 'int8', 'int4'];
            expect(order.slice(0, order.indexOf(chosen)).every((w) => refused.includes(w as never))).toBe(true);
          } else expect(chosen).toBe(old);
        },
      ),
    );
  });

  it('on WebGPU without shader-f16 the page never starts on float16: the plan refuses it, the default passes over it, whatever else fits', () => {
    const face = parseConfig(CONSISID_PREVIEW_S_CONFIG);
    const shape = fitShape(face, { ...defaultSpec(face), vitTokens: 9 });
    fc.assert(
      fc.property(fc.integer({ min: 14, max: 31 }), fc.boolean(), (log2Binding, shaderF16) => {
        const limits = { maxBufferSize: 2 ** log2Binding, maxStorageBufferBindingSize: 2 ** log2Binding };
        const fits = planFit(face, shape, 'webgpu', { limits, shaderF16, subgroups: true, subgroupMinSize: 4 });
        const chosen = defaultPrecision('webgpu', probe({ limits, shaderF16 }), fits);
        if (!shaderF16) {
          expect(fits.find((f) => f.weights === 'float16')!.fits).toBe(false);
          expect(chosen).not.toBe('float16');
        } else if (fits.find((f) => f.weights === 'float16')!.fits) expect(chosen).toBe('float16');
      }),
      { numRuns: 8 },
    );
  });

  it("reads the adapter's limits and features; an adapter that reports none gets the spec's defaults", async () => {
    const limits = { maxBufferSize: 2 ** 40, maxStorageBufferBindingSize: 2 ** 31 - 4 };
    const gpu = (adapter: object | null) => ({ gpu: { requestAdapter: async () => adapter } });
    const features = (...names: string[]) => ({ has: (n: string) => names.includes(n) });
    const found = await probeWebGPU(gpu({ limits, features: features('subgroups'), info: { subgroupMinSize: 4 } }));
    expect(adapterCaps(found)).toEqual({ limits, shaderF16: false, subgroups: true, subgroupMinSize: 4 });
    const bare = await probeWebGPU(gpu({ features: features('shader-f16') }));
    expect(adapterCaps(bare)).toEqual({ limits: {}, shaderF16: true, subgroups: false, subgroupMinSize: null });
    // the workers plan with the spec's defaults where the adapter reports none
    expect(withDefaultLimits(adapterCaps(bare)!.limits)).toEqual(WEBGPU_DEFAULT_LIMITS);
    expect(withDefaultLimits({ maxBufferSize: 5 })).toEqual({ ...WEBGPU_DEFAULT_LIMITS, maxBufferSize: 5 });
    expect(adapterCaps(await probeWebGPU(gpu(null)))).toBeNull();
    expect(adapterCaps(await probeWebGPU({}))).toBeNull();
  });
});

describe('the fit panel line on browser storage', () => {
  it("names each precision's converted bytes once planned from the headers, and only the precisions before", () => {
    const room = { free: 10_000, unusable: null };
    expect(storageLine(room, 1000)).toContain('Converted weights (float16, int8, int4) are kept there');
    expect(storageLine(room, 1000, { int4: 300 })).toContain('Converted weights (float16, int8, int4) are kept there');
    expect(storageLine(room, 1000, { float16: 2000, int8: 1100, int4: 650 })).toBe(
      "Browser storage: 10.0 KB free for this site. Converted weights (float16 2.0 KB, int8 1.1 KB, int4 650 B, from the checkpoint's headers) are kept there; where they do not fit, they are held in memory instead, with the largest segment's weights, within 1.0 KB.",
    );
  });
});

describe("the fit panel's VAE line beside the transformer", () => {
  it("says the decode runs beside the chosen precision's sessions, or releases them first, as the plan places it", () => {
    const config = parseConfig(CONSISID_PREVIEW_S_CONFIG);
    const spec = defaultSpec(config);
    const dims = [1, spec.frames, config.out_channels, spec.height, spec.width];
    const transformer = planFit(config, fitShape(config, spec), 'wasm', null).find((f) => f.weights === 'float32')!;
    const alone = planPreviewDecode(DEMO_VAE_CONFIG, dims, 'wasm');
    const line = (budgetBytes: number) =>
      besideLine(planPreviewDecode(DEMO_VAE_CONFIG, dims, 'wasm', { transformer, budgetBytes }));
    expect(line(1.4e9)).toMatch(
      /^ It decodes beside the transformer: its sessions hold 3\.3 MB, the decode needs [\d.]+ MB of the [\d.]+ GB left\.$/,
    );
    // the smallest tile's need fits the budget alone but not beside the 3.3 MB the transformer holds
    const smallest = planPreviewDecode(DEMO_VAE_CONFIG, dims, 'wasm', { budgetBytes: 1 }).needBytes;
    expect(alone.needBytes).toBeGreaterThan(smallest);
    expect(line(smallest + 1e6)).toBe(
      ` It releases the transformer's sessions first: they hold 3.3 MB, and the decode needs ${formatBytes(smallest)} of the ${formatBytes(smallest + 1e6)} budget; the next run makes them again.`,
    );
    // nothing held, nothing said
    expect(besideLine(planPreviewDecode(DEMO_VAE_CONFIG, dims, 'wasm'))).toBe('');
  });
});

describe("the fit panel's VAE line: whether the decode fits", () => {
  // the preview's latents (13 x 30 x 44) with the released decoder, on a WASM page
  const dims = [1, 13, 16, 30, 44];
  it('fits at 1 thread; at 4 threads even the smallest tiles pass the page budget, which the line says', () => {
    expect(vaeFits(planPreviewDecode(RELEASED_VAE_CONFIG, dims, 'wasm', { threads: 1 }), false)).toBe('yes');
    const threaded = planPreviewDecode(RELEASED_VAE_CONFIG, dims, 'wasm', { threads: 4 });
    expect(threaded.misses).not.toEqual([]);
    expect(vaeFits(threaded, false)).toMatch(
      /^over the page's budget \(wasm at 4 threads: weights and one batch [\d.]+ GiB exceed the budget's [\d.]+ GiB\); it decodes in the smallest tiles$/,
    );
  });

  it("says no, with the browser's reasons, where the browser cannot hold a batch at all", () => {
    const fit = { webgpu: false, wasm: true, reasons: ['a buffer exceeds the binding limit'] };
    expect(vaeFits({ fit, misses: [] }, true)).toBe('no: a buffer exceeds the binding limit');
    expect(vaeFits({ fit, misses: [] }, false)).toBe('yes');
  });
});

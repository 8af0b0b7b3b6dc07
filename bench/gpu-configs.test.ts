import { describe, expect, it } from 'vitest';
import { parseConfig } from '../src/model/graph/config.ts';
import { parseShapeSpec } from '../src/model/cli/shape-spec.ts';
import { GPU_CONFIG_NAMES, GPU_CONFIGS, gpuConfig } from './gpu-configs.ts';
import { benchModelRefusals } from './gpu-model.ts';

const tokens = (name: string) => {
  const c = GPU_CONFIGS[name]!;
  const config = parseConfig(c.config, name);
  const s = parseShapeSpec(c.shape, config);
  return { config, shape: s, tokens: s.frames * (s.height / 2) * (s.width / 2) + s.textLength };
};

describe('the GPU bench configs', () => {
  it('build a forward the model accepts, at the sizes issue 23 names', () => {
    const sizes = Object.fromEntries(GPU_CONFIG_NAMES.map((n) => [n, tokens(n)]));
    expect(sizes['fullwidth-2']!.tokens).toBe(4516);
    expect(sizes['fullwidth-2-full']!.tokens).toBe(17776);
    expect(sizes['consisid']!.tokens).toBe(4516);
    expect(sizes['consisid']!.config.num_layers).toBe(42);
    expect(sizes['fullwidth-2']!.config.num_attention_heads * sizes['fullwidth-2']!.config.attention_head_dim).toBe(
      3072,
    );
  });

  it('refuse a precision only where no segment plan fits: segments take every size past the wasm heap', () => {
    for (const name of ['small', 'preview-s']) {
      const { config, shape } = tokens(name);
      expect([...benchModelRefusals(config, shape).values()].every((r) => r === null)).toBe(true);
    }
    const { config, shape } = tokens('consisid');
    const refusals = benchModelRefusals(config, shape);
    // 42 layers: 21 GiB in float32, 3.1 GiB in int4; only float32's first block alone is over a segment's budget
    expect(refusals.get('float32')).toMatch(/block 0 with the embeddings alone: .* over the 1.00 GiB heap budget/);
    expect([refusals.get('float16'), refusals.get('int8'), refusals.get('int4')]).toEqual([null, null, null]);
    const narrow = benchModelRefusals(config, shape, { maxBufferSize: 2 ** 28, maxStorageBufferBindingSize: 2 ** 23 });
    expect(narrow.get('int4')).toMatch(/int4 weights on webgpu do not fit/);
  });

  it('name the choices for an unknown config', () => {
    expect(() => gpuConfig('nope')).toThrow(/nope is none of small, preview-s/);
  });
});

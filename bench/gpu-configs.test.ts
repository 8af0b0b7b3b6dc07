import { describe, expect, it } from 'vitest';
import { parseConfig } from '../src/model/config.ts';
import { parseShapeSpec } from '../src/model/cli/shape-spec.ts';
import { CPU_ADAPTER_CONFIG_NAMES, GPU_CONFIG_NAMES, GPU_CONFIGS, gpuConfig } from './gpu-configs.ts';
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

  it('refuse a whole-graph session only where the weights pass the wasm heap', () => {
    for (const name of CPU_ADAPTER_CONFIG_NAMES) {
      const { config, shape } = tokens(name);
      expect([...benchModelRefusals(config, shape).values()].every((r) => r === null)).toBe(true);
    }
    const { config, shape } = tokens('consisid');
    const refusals = benchModelRefusals(config, shape);
    expect(refusals.get('float32')).toMatch(/GiB of float32 weights .* needs the segmented model/);
    expect(refusals.get('float16')).toMatch(/needs the segmented model/);
    expect(refusals.get('int8')).toMatch(/needs the segmented model/);
  });

  it('name the choices for an unknown config', () => {
    expect(() => gpuConfig('nope')).toThrow(/nope is none of small, preview-s/);
  });
});

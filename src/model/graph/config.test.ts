import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig, sampleFramesFor } from './config.ts';
import { FIXTURES_DIR } from '../test-support/fixtures.ts';

describe('parseConfig', () => {
  it('fills every interface default', () => {
    const c = parseConfig({});
    expect(c).toMatchObject({
      num_attention_heads: 30,
      attention_head_dim: 64,
      in_channels: 16,
      out_channels: 16,
      flip_sin_to_cos: true,
      freq_shift: 0,
      time_embed_dim: 512,
      text_embed_dim: 4096,
      num_layers: 30,
      dropout: 0,
      attention_bias: true,
      sample_width: 90,
      sample_height: 60,
      sample_frames: 49,
      patch_size: 2,
      temporal_compression_ratio: 4,
      max_text_seq_length: 226,
      activation_fn: 'gelu-approximate',
      timestep_activation_fn: 'silu',
      norm_elementwise_affine: true,
      norm_eps: 1e-5,
      spatial_interpolation_scale: 1.875,
      temporal_interpolation_scale: 1.0,
      use_rotary_positional_embeddings: false,
      use_learned_positional_embeddings: false,
      is_train_face: false,
      is_kps: false,
      cross_attn_interval: 2,
      cross_attn_dim_head: 128,
      cross_attn_num_heads: 16,
      LFE_id_dim: 1280,
      LFE_vit_dim: 1024,
      LFE_depth: 10,
      LFE_dim_head: 64,
      LFE_num_heads: 16,
      LFE_num_id_token: 5,
      LFE_num_querie: 32,
      LFE_output_dim: 2048,
      LFE_ff_mult: 4,
      LFE_num_scale: 5,
      local_face_scale: 1.0,
    });
  });

  it('reads the fixture configs, ignoring _class_name and _diffusers_version', () => {
    for (const name of ['tiny-base', 'tiny-face', 'tiny-rope']) {
      const raw = JSON.parse(readFileSync(path.join(FIXTURES_DIR, name, 'config.json'), 'utf8'));
      const c = parseConfig(raw);
      expect(c).not.toHaveProperty('_class_name');
      expect(c.num_attention_heads).toBe(2);
    }
    expect(() => parseConfig({ _whatever: 1, _name_or_path: 'x' })).not.toThrow();
  });

  it('null optional ints fall back to defaults; out_channels null follows in_channels', () => {
    const c = parseConfig({ in_channels: 8, out_channels: null, cross_attn_dim_head: null });
    expect(c.out_channels).toBe(8);
    expect(c.cross_attn_dim_head).toBe(128);
  });

  it('rejects unknown and mistyped parameters by name', () => {
    expect(() => parseConfig({ num_layer: 3 })).toThrow(/unknown parameter\(s\) num_layer/);
    expect(() => parseConfig({ num_layers: 'three' })).toThrow(/num_layers/);
    expect(() => parseConfig({ patch_size: 0 })).toThrow(/patch_size/);
  });

  it('the defaults cannot run with is_train_face: LFE_output_dim must be int(inner_dim * 2 / 3)', () => {
    expect(() => parseConfig({ is_train_face: true })).toThrow(ConfigError);
    expect(() => parseConfig({ is_train_face: true })).toThrow(
      /LFE_output_dim \(2048\) must equal int\(inner_dim \* 2 \/ 3\) = 1280/,
    );
    expect(() => parseConfig({ is_train_face: true, LFE_output_dim: 1280 })).not.toThrow();
    expect(() =>
      parseConfig({
        num_attention_heads: 8,
        attention_head_dim: 64,
        is_train_face: true,
        LFE_output_dim: 341,
        num_layers: 8,
      }),
    ).not.toThrow();
  });

  it('num_layers must be a multiple of cross_attn_interval with the identity module', () => {
    expect(() =>
      parseConfig({ is_train_face: true, LFE_output_dim: 1280, num_layers: 5, cross_attn_interval: 2 }),
    ).toThrow(/num_layers \(5\) must be a multiple of cross_attn_interval \(2\)/);
    expect(() => parseConfig({ num_layers: 5, cross_attn_interval: 2 })).not.toThrow();
  });

  it('LFE_depth must be a multiple of LFE_num_scale', () => {
    expect(() => parseConfig({ LFE_depth: 7 })).toThrow(/LFE_depth \(7\) must be a multiple of LFE_num_scale \(5\)/);
  });

  it('learned positional embeddings need rotary ones', () => {
    expect(() => parseConfig({ use_learned_positional_embeddings: true })).toThrow(
      /use_learned_positional_embeddings requires use_rotary_positional_embeddings/,
    );
    expect(() =>
      parseConfig({ use_learned_positional_embeddings: true, use_rotary_positional_embeddings: true }),
    ).not.toThrow();
  });

  it('positional tables need even splits', () => {
    expect(() => parseConfig({ num_attention_heads: 3, attention_head_dim: 12 })).toThrow(
      /inner_dim = num_attention_heads \* attention_head_dim = 36 .* multiple of 16/,
    );
    expect(() =>
      parseConfig({ num_attention_heads: 4, attention_head_dim: 24, use_rotary_positional_embeddings: true }),
    ).toThrow(/attention_head_dim = 24 .* multiple of 16/);
  });

  it('activation functions come from the supported set', () => {
    expect(() => parseConfig({ activation_fn: 'gelu-fast' })).toThrow(/activation_fn "gelu-fast" is not supported/);
    expect(() => parseConfig({ timestep_activation_fn: 'tanh' })).toThrow(
      /timestep_activation_fn "tanh" is not supported/,
    );
    expect(parseConfig({ timestep_activation_fn: 'SiLU' }).timestep_activation_fn).toBe('silu');
    for (const a of ['gelu', 'gelu-approximate', 'geglu', 'geglu-approximate', 'swiglu', 'linear-silu'])
      expect(parseConfig({ activation_fn: a }).activation_fn).toBe(a);
  });

  it('reports several problems at once', () => {
    try {
      parseConfig({ LFE_depth: 7, activation_fn: 'x' });
      expect.unreachable();
    } catch (e) {
      expect((e as Error).message).toMatch(/LFE_depth/);
      expect((e as Error).message).toMatch(/activation_fn/);
    }
  });
});

describe('sampleFramesFor', () => {
  it('gives (K - 1) * temporal_compression_ratio + 1', () => {
    expect(sampleFramesFor(13, parseConfig({}))).toBe(49);
    expect(sampleFramesFor(4, parseConfig({}))).toBe(13);
    expect(sampleFramesFor(2, parseConfig({ temporal_compression_ratio: 2 }))).toBe(3);
  });
});

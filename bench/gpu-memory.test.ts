import { describe, expect, it } from 'vitest';
import { parseConfig } from '../src/model/graph/config.ts';
import { parseShapeSpec } from '../src/model/cli/shape-spec.ts';
import { expectedParameters } from '../src/model/graph/parameters.ts';
import { CONSISID_CONFIG } from '../src/model/models/consisid/named-configs.ts';
import { sizedToLatents } from './gpu-memory.ts';

describe('the memory bench config', () => {
  it('sizes only the learned positional table to a small latent size, which the released config refuses', () => {
    const shape = 'frames=1,height=4,width=4,vit=9,text=1';
    expect(() => parseShapeSpec(shape, parseConfig(CONSISID_CONFIG))).toThrow(/height=60,width=90/);
    const sized = parseConfig(sizedToLatents(CONSISID_CONFIG, shape));
    expect(parseShapeSpec(shape, sized)).toMatchObject({ frames: 1, height: 4, width: 4, textLength: 1 });
    const released = expectedParameters(parseConfig(CONSISID_CONFIG));
    const differ = [...expectedParameters(sized)].filter(([k, s]) => String(released.get(k)) !== String(s));
    expect(differ).toEqual([['patch_embed.pos_embedding', [1, 226 + 13 * 2 * 2, 3072]]]);
    expect(sizedToLatents({ ...CONSISID_CONFIG, use_learned_positional_embeddings: false }, shape).sample_height).toBe(
      60,
    );
  });
});

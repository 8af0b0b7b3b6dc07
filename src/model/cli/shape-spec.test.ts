import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseConfig, type ConsisIDConfig } from '../graph/config.ts';
import { CONSISID_PREVIEW_S_CONFIG, CONSISID_TINY_CONFIG } from '../models/consisid/demo-checkpoints.ts';
import { prepareForward } from '../models/consisid/forward-inputs.ts';
import { argsFromNamedTensors } from '../models/consisid/named-inputs.ts';
import { CONSISID_CONFIG } from '../models/consisid/named-configs.ts';
import { randomInputs } from './generate-command.ts';
import { UsageError } from './flags.ts';
import { parseShapeSpec } from './shape-spec.ts';

const tiny = parseConfig(CONSISID_TINY_CONFIG);
const face = parseConfig(CONSISID_PREVIEW_S_CONFIG);
const learned = parseConfig({
  ...CONSISID_TINY_CONFIG,
  use_rotary_positional_embeddings: true,
  use_learned_positional_embeddings: true,
});

interface Raw {
  batch: number;
  frames: number;
  height: number;
  width: number;
  text: number;
  idBatch: number;
  vit: number;
  rotary: boolean;
  timestepCond: boolean;
}

function specOf(c: ConsisIDConfig, r: Raw): string {
  const keys = [`batch=${r.batch}`, `frames=${r.frames}`, `height=${r.height}`, `width=${r.width}`, `text=${r.text}`];
  if (c.is_train_face) keys.push(`id-batch=${r.idBatch}`, `vit=${r.vit}`);
  if (c.use_rotary_positional_embeddings && !r.rotary) keys.push('no-rotary');
  if (r.timestepCond) keys.push('timestep-cond');
  return keys.join(',');
}

/** whether the model's forward takes inputs of this shape (its own input checks) */
function forwardAccepts(c: ConsisIDConfig, r: Raw): boolean {
  const shape = {
    batch: r.batch,
    frames: r.frames,
    height: r.height,
    width: r.width,
    textLength: r.text,
    timestepCond: r.timestepCond,
    rotary: r.rotary && c.use_rotary_positional_embeddings,
    face: c.is_train_face ? { idBatch: r.idBatch, vitLengths: Array<number>(c.LFE_num_scale).fill(r.vit) } : null,
  };
  try {
    prepareForward(c, argsFromNamedTensors(new Map(Object.entries(randomInputs(c, shape, 1)))));
    return true;
  } catch {
    return false;
  }
}

const raw = fc.record({
  batch: fc.integer({ min: 1, max: 2 }),
  frames: fc.integer({ min: 1, max: 5 }),
  height: fc.oneof(fc.constantFrom(12), fc.integer({ min: 1, max: 14 })),
  width: fc.oneof(fc.constantFrom(16), fc.integer({ min: 1, max: 18 })),
  text: fc.oneof(fc.constantFrom(16, 32), fc.integer({ min: 1, max: 40 })),
  idBatch: fc.integer({ min: 1, max: 3 }),
  vit: fc.integer({ min: 1, max: 6 }),
  rotary: fc.boolean(),
  timestepCond: fc.boolean(),
});

describe('--shape', () => {
  it.each([
    ['tiny', tiny],
    ['identity module + rotary', face],
    ['learned positional embeddings', learned],
  ])('%s: accepts exactly the shapes the forward takes', (_, c) => {
    fc.assert(
      fc.property(raw, (r) => {
        const spec = specOf(c, r);
        let parsed: ReturnType<typeof parseShapeSpec> | undefined;
        try {
          parsed = parseShapeSpec(spec, c);
        } catch (e) {
          expect(e, spec).toBeInstanceOf(UsageError);
        }
        expect(parsed !== undefined, spec).toBe(forwardAccepts(c, r));
        if (parsed)
          expect([parsed.batch, parsed.frames, parsed.height, parsed.width, parsed.textLength], spec).toEqual([
            r.batch,
            r.frames,
            r.height,
            r.width,
            r.text,
          ]);
      }),
      { numRuns: 150 },
    );
  });

  it('refuses keys the config has no use for, switches with a value, contradictions and repeats, naming the key', () => {
    const bad: [string, ConsisIDConfig, RegExp][] = [
      ['rotary', tiny, /^--shape: rotary: this config has no rotary positional embeddings/],
      ['vit=5', tiny, /^--shape: vit: this config has no identity module/],
      ['id-batch=1', tiny, /^--shape: id-batch: this config has no identity module/],
      ['no-rotary=1', face, /^--shape: no-rotary takes no value/],
      ['timestep-cond=0', tiny, /^--shape: timestep-cond takes no value/],
      ['rotary,no-rotary', face, /^--shape: rotary and no-rotary contradict each other/],
      ['height=8,height=10', tiny, /^--shape: height is given twice/],
      ['text=17', tiny, /^--shape: text must be at most max_text_seq_length \(16\), got 17/],
      ['height=10', learned, /^--shape: .*learned positional embeddings need height=12,width=16/],
      ['id-batch=2', face, /^--shape: id-batch must be 1 or batch \(1\), got 2/],
    ];
    for (const [spec, c, message] of bad) expect(() => parseShapeSpec(spec, c), spec).toThrow(message);
  });

  it('the full ConsisID: the default shape is its own; fewer text tokens at its frame count are refused', () => {
    const c = parseConfig(CONSISID_CONFIG);
    expect(parseShapeSpec(undefined, c)).toMatchObject({
      frames: 13,
      height: 60,
      width: 90,
      textLength: 226,
      rotary: true,
    });
    expect(() => parseShapeSpec('text=10', c)).toThrow(
      /^--shape: .*learned positional embeddings need text=226 at frames=13/,
    );
    expect(parseShapeSpec('text=10,frames=2', c).textLength).toBe(10);
  });
});

import { describe, expect, it } from 'vitest';
import { validateSpec } from './spec-errors.ts';
import { summarizeHeader } from './worker/inspect.ts';
import {
  defaultSpec,
  inputLimits,
  parseConfig,
  CONSISID_PREVIEW_S_CONFIG,
  CONSISID_TINY_CONFIG,
  parseSafetensorsHeader,
} from '../../model/index.ts';

const tiny = parseConfig(CONSISID_TINY_CONFIG);
const face = parseConfig(CONSISID_PREVIEW_S_CONFIG);

describe('the inputs form', () => {
  it('are checked against the config limits', () => {
    const l = inputLimits(tiny);
    expect(l.frames.max).toBe(3);
    expect(l.height).toMatchObject({ max: 12, step: 2 });
    expect(validateSpec(inputLimits(tiny), false, defaultSpec(tiny))).toEqual([]);
    expect(
      validateSpec(inputLimits(tiny), false, { ...defaultSpec(tiny), height: 13, frames: 9, textLength: 17 }),
    ).toEqual([
      'frames must be an integer from 1 to 3',
      'height must be an integer from 2 to 12',
      'text length must be an integer from 1 to 16',
    ]);
    expect(validateSpec(inputLimits(tiny), false, { ...defaultSpec(tiny), width: 7 })).toEqual([
      'width must be a multiple of 2',
    ]);
    expect(validateSpec(inputLimits(face), true, { ...defaultSpec(face), identity: false })[0]).toMatch(
      /identity inputs are required/,
    );
  });
});

describe('checkpoint headers', () => {
  it('summarizes safetensors headers and rejects bad entries', () => {
    const header = (json: string, file: string) =>
      parseSafetensorsHeader(new TextEncoder().encode(json), 2 ** 40, file);
    const s = summarizeHeader(
      header(
        JSON.stringify({
          __metadata__: { a: 'b' },
          w: { dtype: 'F16', shape: [2, 3], data_offsets: [0, 12] },
          b: { dtype: 'F32', shape: [3], data_offsets: [12, 24] },
        }),
        'x',
      ),
    );
    expect(s).toEqual({ tensors: 2, params: 9, dtypes: { F16: 6, F32: 3 } });
    expect(() => summarizeHeader(header('{"w":{"dtype":"Q4","shape":[1]}}', 'x.safetensors'))).toThrow(
      /x.safetensors: tensor "w"/,
    );
  });
});

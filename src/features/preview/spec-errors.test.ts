import { describe, expect, it } from 'vitest';
import { validateSpec } from './spec-errors.ts';
import { parseConfig } from '../../model/graph/config.ts';
import { defaultSpec, inputLimits } from '../../model/graph/input-spec.ts';
import { CONSISID_PREVIEW_S_CONFIG, CONSISID_TINY_CONFIG } from '../../model/models/consisid/demo-checkpoints.ts';

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

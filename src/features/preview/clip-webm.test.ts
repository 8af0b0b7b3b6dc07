import { describe, expect, it } from 'vitest';
import { clipError, encodeWebm, webmUnsupported } from './clip-webm.ts';

const frame = (w: number, h: number) => new Uint8ClampedArray(w * h * 4);

describe('clipError', () => {
  it('accepts frames of width * height * 4 bytes', () => {
    expect(clipError({ width: 3, height: 2, frames: [frame(3, 2), frame(3, 2)] })).toBeNull();
  });
  it('names the field that is wrong', () => {
    expect(clipError({ width: 0, height: 2, frames: [] })).toMatch(/^clip\.width must be a positive whole number/);
    expect(clipError({ width: 2, height: 1.5, frames: [] })).toMatch(/^clip\.height /);
    expect(clipError({ width: 2, height: 2, frames: [] })).toMatch(/^clip\.frames is empty/);
    expect(clipError({ width: 2, height: 2, frames: [frame(2, 2), frame(2, 1)] })).toBe(
      'clip.frames[1] holds 8 bytes; 2 x 2 RGBA takes 16.',
    );
  });
});

describe('encodeWebm', () => {
  const clip = { width: 2, height: 2, frames: [frame(2, 2)] };
  it('refuses a bad clip or frame rate before it encodes', async () => {
    await expect(encodeWebm({ ...clip, frames: [] }, 8)).rejects.toThrow(/^clip\.frames is empty/);
    for (const fps of [0, -1, NaN, 121]) await expect(encodeWebm(clip, fps)).rejects.toThrow(/^fps must be in/);
  });
  it('says where there is no VideoEncoder (Node has none)', async () => {
    expect(webmUnsupported()).toMatch(/no WebCodecs VideoEncoder/);
    await expect(encodeWebm(clip, 8)).rejects.toThrow(/no WebCodecs VideoEncoder/);
  });
});

import { describe, expect, it } from 'vitest';
import { countGpuBuffers } from './gpu-buffer-count.ts';

class FakeBuffer {
  destroyed = false;
  constructor(readonly size: number) {}
  destroy() {
    this.destroyed = true;
  }
}
class FakeDevice {
  createBuffer(desc: { size: number; usage: number }) {
    return new FakeBuffer(desc.size);
  }
}
const fresh = () => {
  class D extends FakeDevice {}
  class B extends FakeBuffer {}
  const proto = D.prototype as unknown as Record<string, unknown>;
  proto.createBuffer = (desc: { size: number }) => new B(desc.size);
  return {
    device: new D(),
    count: countGpuBuffers(proto, B.prototype as unknown as Record<string, unknown>),
  };
};

const STORAGE = 0x80;
const MAP_READ = 0x1;
const MAP_WRITE = 0x2;
const COPY_SRC = 0x4;

describe('countGpuBuffers', () => {
  it('counts each buffer from its making until destroyed, once, and the peak since the last mark', () => {
    const { device, count } = fresh();
    const a = device.createBuffer({ size: 100, usage: STORAGE });
    const b = device.createBuffer({ size: 50, usage: STORAGE });
    expect([count.live, count.peak, count.made]).toEqual([150, 150, 2]);
    a.destroy();
    a.destroy();
    expect([count.live, count.peak]).toEqual([50, 150]);
    expect(a.destroyed).toBe(true);
    count.mark();
    expect(count.peak).toBe(50);
    device.createBuffer({ size: 30, usage: STORAGE });
    b.destroy();
    expect([count.live, count.peak, count.storagePeak]).toEqual([30, 80, 80]);
    expect([count.made, count.madeBytes]).toEqual([3, 180]);
  });

  it('keeps mappable (staging) buffers out of the storage peak', () => {
    const { device, count } = fresh();
    device.createBuffer({ size: 100, usage: STORAGE });
    const up = device.createBuffer({ size: 40, usage: MAP_WRITE | COPY_SRC });
    const down = device.createBuffer({ size: 20, usage: MAP_READ });
    expect([count.live, count.mappableLive, count.peak, count.storagePeak]).toEqual([160, 60, 160, 100]);
    up.destroy();
    down.destroy();
    expect([count.live, count.mappableLive]).toEqual([100, 0]);
  });

  it('counts nothing where there is no WebGPU', () => {
    const count = countGpuBuffers(undefined, undefined);
    expect([count.live, count.made]).toEqual([0, 0]);
  });
});

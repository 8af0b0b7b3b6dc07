import { describe, expect, it } from 'vitest';
import { processKind } from './browser-processes.ts';

describe("a Chromium process's kind from its command line", () => {
  it('tells the browser (no --type), renderers, the GPU process and the rest apart', () => {
    const cmd = (...args: string[]) => ['/usr/lib/chromium/chromium', ...args].join('\0');
    expect(processKind(cmd('--user-data-dir=/tmp/p', '--enable-unsafe-webgpu'))).toBe('browser');
    expect(processKind(cmd('--type=renderer', '--user-data-dir=/tmp/p'))).toBe('renderer');
    expect(processKind(cmd('--type=gpu-process', '--use-angle=swiftshader'))).toBe('gpu');
    expect(processKind(cmd('--type=utility', '--utility-sub-type=network.mojom.NetworkService'))).toBe('other');
    expect(processKind(cmd('--type=zygote'))).toBe('other');
    // a flag whose value merely contains --type= is not the process's type
    expect(processKind(cmd('--js-flags=--type=renderer'))).toBe('browser');
  });
});

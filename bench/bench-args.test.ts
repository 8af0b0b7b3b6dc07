import { describe, expect, it } from 'vitest';
import { parseBenchArgs, TARGETS } from './bench-args.ts';

describe('npm run bench arguments', () => {
  it('runs every target but gpu, page-memory and the vae ones when none is named, else the named ones in their usual order', () => {
    expect(parseBenchArgs([])).toEqual(
      TARGETS.filter((t) => t !== 'gpu' && t !== 'page-memory' && !t.startsWith('vae')),
    );
    expect(parseBenchArgs(['vae-memory'])).toEqual(['vae-memory']);
    expect(parseBenchArgs(['vae-beside'])).toEqual(['vae-beside']);
    expect(parseBenchArgs(['vae-page'])).toEqual(['vae-page']);
    expect(parseBenchArgs(['vae'])).toEqual(['vae']);
    expect(parseBenchArgs(['gpu'])).toEqual(['gpu']);
    expect(parseBenchArgs(['page-memory'])).toEqual(['page-memory']);
    expect(parseBenchArgs(['model', 'webhooks'])).toEqual(['webhooks', 'model']);
  });

  it('refuses unknown targets and flags instead of ignoring them', () => {
    expect(() => parseBenchArgs(['webhook'])).toThrow(/unknown bench target\(s\): webhook; choose from hub, webhooks/);
    expect(() => parseBenchArgs(['--quick', 'hub'])).toThrow(/unknown option --quick/);
  });
});

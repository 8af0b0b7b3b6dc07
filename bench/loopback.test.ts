// The benchmarks generate load, so they must only ever reach this machine: every URL and host
// literal in bench/ is loopback, and every server they start binds to 127.0.0.1.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseServeArgs } from '../scripts/serve-args.ts';
import { parseHubArgs } from '../src/mock-hub/cli-args.ts';

const dir = new URL('./', import.meta.url);
const sources = readdirSync(dir)
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
  .map((f) => ({ file: f, text: readFileSync(new URL(f, dir), 'utf8') }));
const LOOPBACK = /^(127\.0\.0\.1|localhost|\[::1\])$/;

describe('benchmarks target loopback only', () => {
  it('has the five targets and the harness', () => {
    expect(sources.map((s) => s.file)).toEqual(
      expect.arrayContaining([
        'run.ts',
        'figure.ts',
        'hub.ts',
        'webhooks.ts',
        'model.ts',
        'dashboard.ts',
        'preview.ts',
      ]),
    );
  });

  it('every http(s) URL literal and host/hostname option is loopback', () => {
    for (const { file, text } of sources) {
      for (const m of text.matchAll(/\bhttps?:\/\/([^/:'"`\s$]+)/g)) expect(m[1], `${file}: ${m[0]}`).toMatch(LOOPBACK);
      for (const m of text.matchAll(/\bhost(?:name)?\s*:\s*['"`]([^'"`]+)['"`]/g))
        expect(m[1], `${file}: ${m[0]}`).toMatch(LOOPBACK);
      for (const m of text.matchAll(/\.listen\(\s*\d+\s*,\s*['"`]([^'"`]+)['"`]/g))
        expect(m[1], `${file}: ${m[0]}`).toMatch(LOOPBACK);
      for (const m of text.matchAll(/['"`]--host['"`]\s*,\s*['"`]([^'"`]+)['"`]/g))
        expect(m[1], `${file}: ${m[0]}`).toMatch(LOOPBACK);
    }
  });

  it('the servers they start default to 127.0.0.1', () => {
    expect(parseServeArgs([]).host).toBe('127.0.0.1');
    expect(parseHubArgs([]).host).toBe('127.0.0.1');
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { closest, HelpRequested, parseCommandLine, portValue, UsageError } from './command-line.ts';

const OPTIONS = { port: { type: 'string' }, data: { type: 'string' }, fresh: { type: 'boolean' } } as const;

function usageError(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (e instanceof UsageError) return e.message;
    throw e;
  }
  throw new Error('expected a UsageError');
}

describe('parseCommandLine', () => {
  it('reads --name value and --name=value alike, for any value', () => {
    fc.assert(
      fc.property(
        fc.string().filter((v) => !v.startsWith('-')),
        (v) => {
          expect(parseCommandLine(['--data', v], OPTIONS).values.data).toBe(v);
          expect(parseCommandLine([`--data=${v}`], OPTIONS).values.data).toBe(v);
        },
      ),
    );
  });

  it('keeps the last of a repeated option, so a flag the user appends wins', () => {
    expect(parseCommandLine(['--data', '.data', '--data', 'mine'], OPTIONS).values).toEqual({ data: 'mine' });
  });

  it('names an unknown option and suggests the one a typo meant', () => {
    expect(usageError(() => parseCommandLine(['--dat', 'x'], OPTIONS))).toBe(
      'unknown option --dat (did you mean --data?)',
    );
    expect(usageError(() => parseCommandLine(['--frseh'], OPTIONS))).toBe(
      'unknown option --frseh (did you mean --fresh?)',
    );
    expect(usageError(() => parseCommandLine(['--verbose'], OPTIONS))).toBe('unknown option --verbose');
    expect(usageError(() => parseCommandLine(['-x'], OPTIONS))).toBe('unknown option -x');
  });

  it('refuses a missing value, a value on a switch and unexpected positionals', () => {
    expect(usageError(() => parseCommandLine(['--port'], OPTIONS))).toBe('--port needs a value');
    expect(usageError(() => parseCommandLine(['--port', '--fresh'], OPTIONS))).toBe('--port needs a value');
    expect(usageError(() => parseCommandLine(['--fresh=yes'], OPTIONS))).toBe('--fresh takes no value');
    expect(usageError(() => parseCommandLine(['serve'], OPTIONS))).toBe('unexpected argument "serve"');
    expect(parseCommandLine(['a', '--fresh', 'b'], OPTIONS, true).positionals).toEqual(['a', 'b']);
  });

  it('--help and -h ask for the usage', () => {
    for (const argv of [['--help'], ['-h'], ['--port', '1', '--help']])
      expect(() => parseCommandLine(argv, OPTIONS)).toThrow(HelpRequested);
  });
});

describe('closest', () => {
  it('finds a known name from one edit or a prefix, and nothing from an unrelated word', () => {
    const known = ['port', 'host', 'data', 'fresh', 'external-data'];
    fc.assert(
      fc.property(fc.constantFrom(...known), fc.nat(), (name, at) => {
        const i = at % name.length;
        expect(closest(name.slice(0, i) + name.slice(i + 1), known)).toBeDefined();
      }),
    );
    expect(closest('extern', known)).toBe('external-data');
    expect(closest('verbose', known)).toBeUndefined();
  });
});

describe('portValue', () => {
  it('accepts integers 0..65535 and names the flag otherwise', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 65535 }), (n) => {
        expect(portValue(String(n))).toBe(n);
      }),
    );
    for (const bad of ['', 'abc', '-1', '65536', '80.5', '0x'])
      expect(usageError(() => portValue(bad, 'PORT'))).toMatch(/^PORT must be an integer 0\.\.65535/);
  });
});

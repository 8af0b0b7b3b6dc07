import { describe, expect, it } from 'vitest';
import { convertedLine, convertedTotals, fitStorage, holdsAny } from './cache-contents.ts';

const file = (url: string, converted: { precision: 'int8' | 'int4'; bytes: number; complete: boolean }[]) => ({
  url,
  bytes: 0,
  complete: false,
  converted,
});

describe('what the panel says is converted in the cache', () => {
  it("sums each precision over the checkpoint's files; one file part way makes the precision part way", () => {
    const files = [
      file('a', [
        { precision: 'int8', bytes: 1000, complete: true },
        { precision: 'int4', bytes: 300, complete: true },
      ]),
      file('b', [{ precision: 'int8', bytes: 2000, complete: false }]),
    ];
    expect(convertedTotals(files)).toEqual([
      { precision: 'int8', bytes: 3000, complete: false },
      { precision: 'int4', bytes: 300, complete: true },
    ]);
    expect(convertedLine(convertedTotals(files))).toBe('int8 (3.0 KB, part of it), int4 (300 B)');
    expect(holdsAny(files)).toBe(true);
  });

  it('says none, and holds nothing, when no file has chunks or a conversion stored', () => {
    const files = [file('a', []), file('b', [])];
    expect(convertedLine(convertedTotals(files))).toBe('none');
    expect(holdsAny(files)).toBe(false);
    expect(holdsAny([{ ...file('a', []), bytes: 1 }])).toBe(true);
  });

  it("gives the fit the storage's room and each precision cached, whole only when every file is stored whole", () => {
    const files = [
      file('a', [
        { precision: 'int8', bytes: 1000, complete: true },
        { precision: 'int4', bytes: 300, complete: true },
      ]),
      file('b', [{ precision: 'int8', bytes: 2000, complete: true }]),
    ];
    expect(fitStorage({ free: 5, unusable: null }, files)).toEqual({
      free: 5,
      unusable: null,
      cached: { int8: { bytes: 3000, complete: true }, int4: { bytes: 300, complete: false } },
    });
    expect(fitStorage({ free: null, unusable: 'private mode' }, [])).toEqual({
      free: 0,
      unusable: 'private mode',
      cached: {},
    });
    // nothing to check: the listing is not read yet, or the browser says nothing
    expect(fitStorage({ free: 5, unusable: null }, null)).toBeNull();
    expect(fitStorage({ free: null, unusable: null }, files)).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { convertedLine, convertedTotals, downloadOffer, fitStorage, holdsAny } from './cache-contents.ts';

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
    // the converted bytes planned from the headers go with it
    expect(fitStorage({ free: 5, unusable: null }, [], { int4: 700 })).toEqual({
      free: 5,
      unusable: null,
      cached: {},
      converted: { int4: 700 },
    });
    // nothing to check: the listing is not read yet, or the browser says nothing
    expect(fitStorage({ free: 5, unusable: null }, null)).toBeNull();
    expect(fitStorage({ free: null, unusable: null }, files)).toBeNull();
  });
});

describe('what Download offers for the chosen precision', () => {
  const files = [
    { url: 'a', size: 1000 },
    { url: 'b', size: 500 },
  ];
  const listing = [
    file('a', [
      { precision: 'int4', bytes: 300, complete: true },
      { precision: 'int8', bytes: 600, complete: true },
    ]),
    file('b', [
      { precision: 'int4', bytes: 150, complete: true },
      { precision: 'int8', bytes: 100, complete: false },
    ]),
  ];

  it('with every file converted to the precision in the cache, nothing, and says so', () => {
    expect(downloadOffer({ files, missingBytes: 1500 }, listing, 'int4')).toEqual({
      nothing: 'converted int4 cached: nothing to download',
    });
  });

  it('converts the files whose conversion is not stored whole, whatever the cache holds of their chunks', () => {
    expect(downloadOffer({ files, missingBytes: 0 }, listing, 'int8')).toEqual({ bytes: 500 });
    expect(downloadOffer({ files, missingBytes: 0 }, listing, 'float16')).toEqual({ bytes: 1500 });
    // the listing not read yet: every file
    expect(downloadOffer({ files, missingBytes: 0 }, null, 'int4')).toEqual({ bytes: 1500 });
  });

  it('float32 reads the files themselves: the bytes of them the cache lacks, or nothing said', () => {
    expect(downloadOffer({ files, missingBytes: 700 }, listing, 'float32')).toEqual({ bytes: 700 });
    expect(downloadOffer({ files, missingBytes: 0 }, listing, 'float32')).toBeNull();
  });
});

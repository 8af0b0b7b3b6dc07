import { describe, expect, it } from 'vitest';
import { filenameFromContentDisposition } from './content-disposition.ts';

describe('filenameFromContentDisposition', () => {
  it('reads a plain and a quoted filename', () => {
    expect(filenameFromContentDisposition('attachment; filename=acme-audit.json')).toBe('acme-audit.json');
    expect(filenameFromContentDisposition('attachment; filename="acme audit \\"2026\\".json"')).toBe(
      'acme audit "2026".json',
    );
  });

  it('prefers RFC 5987 filename* and decodes it', () => {
    const header = `attachment; filename="fallback.json"; filename*=UTF-8''acme%20%C3%A9t%C3%A9.json`;
    expect(filenameFromContentDisposition(header)).toBe('acme été.json');
    expect(filenameFromContentDisposition(`attachment; filename*=iso-8859-1'en'caf%E9.json`)).toBe('café.json');
  });

  it('falls back to filename when filename* is malformed', () => {
    expect(filenameFromContentDisposition(`attachment; filename*=UTF-8''%E0%A4%A; filename=ok.json`)).toBe('ok.json');
  });

  it('drops directory parts and returns null when there is no name', () => {
    expect(filenameFromContentDisposition('attachment; filename="../../etc/passwd"')).toBe('passwd');
    expect(filenameFromContentDisposition('attachment')).toBeNull();
    expect(filenameFromContentDisposition(null)).toBeNull();
  });
});

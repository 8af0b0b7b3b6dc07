// Conditional request headers on repo files (RFC 9110 section 13.1): the browser's weight cache
// revalidates with If-None-Match, and a resumed download sends If-Range.

const opaque = (tag: string) => tag.trim().replace(/^W\//, '');

/** If-None-Match: `*` or any listed tag naming the file, compared weakly (W/ ignored): answer 304 */
export function noneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => opaque(t) === opaque(etag));
}

/**
 * If-Range: the range applies only while the file is the one the client has (strong comparison,
 * so a weak tag or a date, which these files have no Last-Modified for, never matches); otherwise
 * the whole file, so that no client puts together bytes of two versions.
 */
export function rangeStillValid(header: string | undefined, etag: string): boolean {
  return header === undefined || header.trim() === etag;
}

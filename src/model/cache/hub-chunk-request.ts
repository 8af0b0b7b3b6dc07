// The hub's answer for a chunk of a chunked file (a Range request; one plain GET when the file is a
// single chunk), its status, ETag and length checked.
import { HubFileError, hubFetchRequired, hubFileUrl, type HubRepo } from '../io/hub-files.ts';

export interface ChunkedFileRef {
  repo: HubRepo;
  name: string;
  /** the ETag the file was inspected with; a chunk of another version is refused */
  etag: string | null;
  signal?: AbortSignal;
}

/** the hub's answer for bytes [start, end) of the file; `whole` asks without a Range */
export async function requestChunk(f: ChunkedFileRef, start: number, end: number, whole: boolean): Promise<Response> {
  // chunks go to the weight cache (or are read once): a copy in the browser's HTTP cache would
  // only put the same gigabytes on disk twice
  const res = await hubFetchRequired(f.repo, f.name, {
    ...(whole ? {} : { range: { start, end: end - 1 } }),
    signal: f.signal,
    cache: 'no-store',
  });
  const fail = async (detail: string) => {
    await res.body?.cancel();
    return new HubFileError(f.name, hubFileUrl(f.repo, f.name), res.status, detail);
  };
  if (!whole && res.status !== 206) throw await fail('the hub ignored the Range request for a chunk of the file');
  const etag = res.headers.get('etag');
  if (f.etag && etag && etag !== f.etag)
    throw await fail('the file changed on the hub while it was read; inspect the checkpoint again');
  const length = res.headers.get('content-length');
  if (length !== null && Number(length) !== end - start)
    throw await fail(`expected ${end - start} bytes, the hub announced ${length}`);
  return res;
}

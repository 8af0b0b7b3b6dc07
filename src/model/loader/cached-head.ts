// A weight file's safetensors head (its 8-byte length and JSON header) kept in the weight cache with
// the file's size, beside the file converted: the page inspects a checkpoint whose weights are cached
// only converted (none of the file's chunks stored) without reading the header from the hub again.
import type { RandomAccessFile } from './file-source.ts';
import { headVersion } from './opfs-layout.ts';
import { storageOp, type WeightCache } from './weight-cache.ts';

/** the entry's bytes: the file's size (8 bytes, little-endian), then its head */
export function encodeHead(fileSize: number, head: Uint8Array): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(8 + head.length);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(fileSize), true);
  bytes.set(head, 8);
  return bytes;
}

/** the file as far as its head goes: reading past the head is an error (the bytes are not here) */
export function decodeHead(bytes: Uint8Array, describe: string): RandomAccessFile {
  if (bytes.length < 8) throw new Error(`${describe}: the stored head has ${bytes.length} bytes, fewer than its size`);
  const size = Number(new DataView(bytes.buffer, bytes.byteOffset, 8).getBigUint64(0, true));
  const head = bytes.subarray(8);
  return {
    size,
    read: async (offset, length) => {
      if (offset + length > head.length)
        throw new Error(`${describe}: bytes ${offset}..${offset + length} are past the stored head (${head.length})`);
      return head.slice(offset, offset + length);
    },
  };
}

/** keeps the file's head in the cache, unless an entry of this version holds it already */
export async function storeHead(
  cache: WeightCache,
  source: { url: string; etag: string | null; size: number },
  head: Uint8Array,
): Promise<void> {
  const bytes = encodeHead(source.size, head);
  const version = headVersion(source, bytes.length);
  const found = await storageOp(() => cache.match(version));
  if (found?.complete) return found.release();
  const entry = await storageOp(() => cache.put(version));
  try {
    await entry.write(0, new Blob([bytes]).stream());
    await storageOp(() => entry.markComplete());
  } finally {
    await entry.release();
  }
}

// One journal record on disk: [u32 body length][u32 CRC-32 of body][body], little-endian, where
// body = [u32 meta length][meta JSON, UTF-8][payload bytes]. The length and checksum make a record
// cut short by a crash (or overwritten by garbage) detectable, so reading stops at the last whole one.
// Payload bytes stay raw (the webhook body as received): no JSON escaping, and reading a journal
// parses only the small meta part.
import { crc32 } from 'node:zlib';

export interface JournalRecord {
  meta: Record<string, unknown>;
  /** Raw bytes; a string is written as its UTF-8 bytes (and reads back as a Buffer). */
  payload?: Buffer | string;
}

const HEADER_BYTES = 8;
/** Twice the 1 MB body limit plus room for meta: anything larger is not a record this store wrote. */
export const MAX_RECORD_BYTES = 4 * 1024 * 1024;

// Encodes straight into the record's one buffer: no intermediate buffers for the meta or a string payload.
export function encodeRecord({ meta, payload }: JournalRecord): Buffer {
  const json = JSON.stringify(meta);
  const metaLength = Buffer.byteLength(json, 'utf8');
  const payloadLength =
    payload === undefined ? 0 : typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length;
  const bodyLength = 4 + metaLength + payloadLength;
  const out = Buffer.allocUnsafe(HEADER_BYTES + bodyLength);
  out.writeUInt32LE(bodyLength, 0);
  out.writeUInt32LE(metaLength, HEADER_BYTES);
  out.write(json, HEADER_BYTES + 4, 'utf8');
  if (typeof payload === 'string') out.write(payload, HEADER_BYTES + 4 + metaLength, 'utf8');
  else payload?.copy(out, HEADER_BYTES + 4 + metaLength);
  out.writeUInt32LE(crc32(out.subarray(HEADER_BYTES)), 4);
  return out;
}

export interface DecodedRecords {
  records: JournalRecord[];
  /** Bytes up to the end of the last whole record; what follows is a torn or corrupt tail. */
  validBytes: number;
}

/** Reads records from the start of `data` up to the first one that is incomplete or fails its checksum. */
export function decodeRecords(data: Buffer): DecodedRecords {
  const records: JournalRecord[] = [];
  let at = 0;
  while (at + HEADER_BYTES <= data.length) {
    const length = data.readUInt32LE(at);
    if (length < 4 || length > MAX_RECORD_BYTES || at + HEADER_BYTES + length > data.length) break;
    const body = data.subarray(at + HEADER_BYTES, at + HEADER_BYTES + length);
    if (crc32(body) !== data.readUInt32LE(at + 4)) break;
    const metaLength = body.readUInt32LE(0);
    if (metaLength > length - 4) break;
    let meta: Record<string, unknown>;
    try {
      meta = JSON.parse(body.toString('utf8', 4, 4 + metaLength)) as Record<string, unknown>;
    } catch {
      break;
    }
    const payload = body.subarray(4 + metaLength);
    records.push(payload.length ? { meta, payload } : { meta });
    at += HEADER_BYTES + length;
  }
  return { records, validBytes: at };
}

// One journal record on disk: [magic][u32 body length][u32 CRC-32 of length and body][body],
// little-endian, where body = [u32 meta length][meta JSON, UTF-8][payload bytes]. The magic lets a
// reader that meets a damaged record find the next one (it starts with 0xFF, a byte UTF-8 text never
// holds, so a JSON meta or a webhook body never contains it); the length and checksum tell a whole
// record from one cut short or damaged. Payload bytes stay raw (the webhook body as received): no
// JSON escaping, and reading a journal parses only the small meta part.
// Journals written before the magic ([u32 length][u32 CRC-32 of body][body]) are read with
// `legacyRecordAt`, so a store written by an earlier version opens and is converted.
import { crc32 } from 'node:zlib';

export interface JournalRecord {
  meta: Record<string, unknown>;
  /** Raw bytes; a string is written as its UTF-8 bytes (and reads back as a Buffer). */
  payload?: Buffer | string;
}

export const RECORD_MAGIC = Buffer.from([0xff, 0x57, 0x4a, 0x32]);
const HEADER_BYTES = 12;
const LEGACY_HEADER_BYTES = 8;
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
  RECORD_MAGIC.copy(out, 0);
  out.writeUInt32LE(bodyLength, 4);
  out.writeUInt32LE(metaLength, HEADER_BYTES);
  out.write(json, HEADER_BYTES + 4, 'utf8');
  if (typeof payload === 'string') out.write(payload, HEADER_BYTES + 4 + metaLength, 'utf8');
  else payload?.copy(out, HEADER_BYTES + 4 + metaLength);
  out.writeUInt32LE(crc32(out.subarray(HEADER_BYTES), crc32(out.subarray(4, 8))), 8);
  return out;
}

export interface RecordAt {
  record: JournalRecord;
  /** Where the record ends (the next one starts). */
  end: number;
}

/** The whole record starting at `at`, or undefined if there is none (wrong magic, cut short, damaged). */
export function recordAt(data: Buffer, at: number): RecordAt | undefined {
  if (at + HEADER_BYTES > data.length || data.compare(RECORD_MAGIC, 0, 4, at, at + 4) !== 0) return undefined;
  const length = data.readUInt32LE(at + 4);
  const end = at + HEADER_BYTES + length;
  if (length < 4 || length > MAX_RECORD_BYTES || end > data.length) return undefined;
  const body = data.subarray(at + HEADER_BYTES, end);
  if (crc32(body, crc32(data.subarray(at + 4, at + 8))) !== data.readUInt32LE(at + 8)) return undefined;
  const record = parseBody(body);
  return record && { record, end };
}

/** The whole record of the format before the magic starting at `at`, or undefined. */
export function legacyRecordAt(data: Buffer, at: number): RecordAt | undefined {
  if (at + LEGACY_HEADER_BYTES > data.length) return undefined;
  const length = data.readUInt32LE(at);
  const end = at + LEGACY_HEADER_BYTES + length;
  if (length < 4 || length > MAX_RECORD_BYTES || end > data.length) return undefined;
  // Every meta is a JSON object: a cheap test before the checksum when searching byte by byte.
  if (data[at + LEGACY_HEADER_BYTES + 4] !== 0x7b) return undefined;
  const body = data.subarray(at + LEGACY_HEADER_BYTES, end);
  if (crc32(body) !== data.readUInt32LE(at + 4)) return undefined;
  const record = parseBody(body);
  return record && { record, end };
}

function parseBody(body: Buffer): JournalRecord | undefined {
  const metaLength = body.readUInt32LE(0);
  if (metaLength > body.length - 4) return undefined;
  let meta: unknown;
  try {
    meta = JSON.parse(body.toString('utf8', 4, 4 + metaLength));
  } catch {
    return undefined;
  }
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) return undefined;
  const payload = body.subarray(4 + metaLength);
  return payload.length
    ? { meta: meta as Record<string, unknown>, payload }
    : { meta: meta as Record<string, unknown> };
}

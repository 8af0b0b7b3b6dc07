// A safetensors file converted tensor by tensor as its bytes stream in (Range chunks from the hub,
// any boundaries): each tensor is yielded, by name, as soon as its last byte has arrived. The
// converter holds the header, the bytes of the one tensor it is gathering and the chunk it is
// reading; tensors the plan skips are never gathered.
import {
  parseSafetensorsHeader,
  readHeaderLength,
  SafetensorsError,
  type SafetensorsHeader,
  type SafetensorsTensorInfo,
} from '../io/safetensors/read.ts';
import { convertTensor, type ConvertedPart, type TensorConversion } from './tensor-conversion.ts';

export interface ConvertedTensor {
  name: string;
  conversion: TensorConversion;
  parts: ConvertedPart[];
}

/** what the converter holds now, and the most it held: bytes of the tensor being gathered, the current chunk, the header */
export interface ConverterMemory {
  held: number;
  peak: number;
}

export interface StreamConvertOptions {
  /** the file, for messages */
  file: string;
  /** its size: the stream must deliver exactly this many bytes */
  size: number;
  /** how each tensor converts; null: skipped */
  conversionFor(t: SafetensorsTensorInfo): TensorConversion | null;
  memory?: ConverterMemory;
}

interface Pending {
  info: SafetensorsTensorInfo;
  conversion: TensorConversion;
}

/** a ReadableStream's chunks as an async iterable (not every browser iterates streams); left early, the stream is cancelled */
export async function* streamChunks(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  let ended = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        ended = true;
        return;
      }
      yield value;
    }
  } finally {
    if (!ended) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

export async function* convertSafetensorsStream(
  chunks: AsyncIterable<Uint8Array>,
  opts: StreamConvertOptions,
): AsyncGenerator<ConvertedTensor> {
  const memory = opts.memory ?? { held: 0, peak: 0 };
  const hold = (bytes: number) => {
    memory.held = bytes;
    memory.peak = Math.max(memory.peak, bytes);
  };
  /** file offset of the next byte */
  let pos = 0;
  let head = new Uint8Array(0);
  let headerLength = -1;
  let queue: Pending[] | null = null;
  let next = 0;
  // assigned in take() too, which narrowing does not follow
  let gathered = null as Uint8Array | null;

  /** the queued tensors that bytes [from, to) of the file, at `chunk[at]`, complete */
  function* take(chunk: Uint8Array, at: number, from: number, to: number): Generator<ConvertedTensor> {
    for (; next < queue!.length; next++) {
      const { info, conversion } = queue![next]!;
      const end = info.offset + info.length;
      const lo = Math.max(from, info.offset);
      const hi = Math.min(to, end);
      if (hi > lo) {
        gathered ??= new Uint8Array(info.length);
        gathered.set(chunk.subarray(at + lo - from, at + hi - from), lo - info.offset);
        hold(head.length + gathered.length + chunk.length);
      }
      if (end > to) return;
      const bytes = gathered ?? new Uint8Array(0);
      gathered = null;
      yield { name: info.name, conversion, parts: convertTensor(info, bytes, conversion) };
    }
  }

  for await (const chunk of chunks) {
    hold(head.length + (gathered?.length ?? 0) + chunk.length);
    let at = 0;
    while (!queue && at < chunk.length) {
      const want = headerLength < 0 ? 8 : 8 + headerLength;
      const piece = chunk.subarray(at, at + want - head.length);
      const grown = new Uint8Array(head.length + piece.length);
      grown.set(head);
      grown.set(piece, head.length);
      head = grown;
      at += piece.length;
      pos += piece.length;
      if (head.length < want) continue;
      if (headerLength < 0) headerLength = readHeaderLength(head, opts.file);
      else queue = planned(parseSafetensorsHeader(head.subarray(8), opts.size, opts.file), opts);
    }
    if (queue && at < chunk.length) {
      const from = pos;
      pos += chunk.length - at;
      if (pos > opts.size)
        throw new SafetensorsError(`${opts.file}: the stream holds more than the file's ${opts.size} bytes`);
      yield* take(chunk, at, from, pos);
    }
    hold(head.length + (gathered?.length ?? 0));
  }
  if (!queue) throw truncated(opts, pos);
  // tensors of no bytes at the very end
  yield* take(new Uint8Array(0), 0, pos, pos);
  if (pos < opts.size || next < queue.length) throw truncated(opts, pos);
}

const truncated = (opts: StreamConvertOptions, pos: number) =>
  new SafetensorsError(`${opts.file}: the stream ended after ${pos} of the file's ${opts.size} bytes`);

function planned(header: SafetensorsHeader, opts: StreamConvertOptions): Pending[] {
  const out: Pending[] = [];
  for (const info of header.tensors.values()) {
    const conversion = opts.conversionFor(info);
    if (conversion) out.push({ info, conversion });
  }
  return out.sort((a, b) => a.info.offset - b.info.offset);
}

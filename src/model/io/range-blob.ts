// A Blob whose bytes are produced on demand, range by range (a hub file's chunks as they download):
// onnxruntime-web's JSPI build reads external data given as a Blob through `size`, `slice()` and
// `stream()` while it creates the session, so a session can start before its weights have arrived.
// A Blob subclass, because that build checks `instanceof Blob`; other readers get `arrayBuffer()`.
// That build reports a failed read only as "Unknown error occurred in memory copy": `failure`
// keeps the read's own error (the hub's answer) for the message.

/** bytes [start, end) of the whole, as a stream */
export type RangeReader = (start: number, end: number) => ReadableStream<Uint8Array>;

/** the most bytes a chunked stream hands out at once */
const PIECE = 8 * 2 ** 20;

/**
 * Bytes [start, end) of a file kept in chunks of `chunkBytes`, as a stream of pieces that never
 * span two chunks: `read(i, from, to)` gives bytes [from, to) of chunk `i`.
 */
export function chunkedStream(
  size: number,
  chunkBytes: number,
  start: number,
  end: number,
  read: (i: number, from: number, to: number) => Promise<Uint8Array>,
): ReadableStream<Uint8Array> {
  let pos = start;
  return new ReadableStream<Uint8Array>({
    pull: async (ctl) => {
      if (pos >= end) return ctl.close();
      const i = Math.floor(pos / chunkBytes);
      const c0 = i * chunkBytes;
      const to = Math.min(end, size, c0 + chunkBytes, pos + PIECE);
      ctl.enqueue(await read(i, pos - c0, to - c0));
      pos = to;
    },
  });
}

export class RangeBlob extends Blob {
  constructor(
    private readonly reader: RangeReader,
    private readonly start: number,
    private readonly end: number,
    /** the first error a read of this blob or its slices met (onnxruntime reports only that a read failed) */
    private readonly failures: { first?: unknown } = {},
  ) {
    super();
  }

  /** the first error any stream of this blob (or a slice of it) ended with */
  get failure(): unknown {
    return this.failures.first;
  }

  override get size(): number {
    return this.end - this.start;
  }

  override slice(start = 0, end = this.size): Blob {
    const clamp = (v: number) => Math.max(0, Math.min(this.size, v < 0 ? this.size + v : v));
    return new RangeBlob(
      this.reader,
      this.start + clamp(start),
      this.start + Math.max(clamp(start), clamp(end)),
      this.failures,
    );
  }

  override stream(): ReadableStream<Uint8Array<ArrayBuffer>> {
    const failures = this.failures;
    const reader = this.reader(this.start, this.end).getReader();
    return new ReadableStream<Uint8Array<ArrayBuffer>>({
      async pull(ctl) {
        try {
          const { done, value } = await reader.read();
          if (done) ctl.close();
          else ctl.enqueue(value as Uint8Array<ArrayBuffer>);
        } catch (e) {
          failures.first ??= e;
          ctl.error(e);
        }
      },
      cancel: (reason) => reader.cancel(reason),
    });
  }

  override async arrayBuffer(): Promise<ArrayBuffer> {
    return new Response(this.stream()).arrayBuffer();
  }

  override async bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return new Uint8Array(await this.arrayBuffer());
  }
}

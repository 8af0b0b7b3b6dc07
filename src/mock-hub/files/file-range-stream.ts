// Bytes [start, end] of a file on disk as a web stream, read in large pieces straight into fresh
// buffers. Node's createReadStream behind Readable.toWeb moves 64 KiB at a time: serving a
// 869 MB checkpoint in 64 MiB ranges took 2.0 CPU-seconds that way against 0.65 this way, on a
// machine where the browser reading it shares the cores.
import { open, type FileHandle } from 'node:fs/promises';

const PIECE = 4 * 2 ** 20;

export function fileRangeStream(file: string, start: number, end: number): ReadableStream<Uint8Array> {
  let pos = start;
  let handle: FileHandle | null = null;
  const close = async () => {
    const h = handle;
    handle = null;
    await h?.close();
  };
  return new ReadableStream<Uint8Array>({
    async pull(ctl) {
      try {
        handle ??= await open(file);
        const n = Math.min(PIECE, end + 1 - pos);
        if (n <= 0) {
          await close();
          return ctl.close();
        }
        const buf = new Uint8Array(n);
        const { bytesRead } = await handle.read(buf, 0, n, pos);
        if (bytesRead === 0) throw new Error(`${file} ended at byte ${pos}, before byte ${end} of the range`);
        pos += bytesRead;
        ctl.enqueue(bytesRead === n ? buf : buf.subarray(0, bytesRead));
      } catch (e) {
        await close();
        throw e;
      }
    },
    cancel: close,
  });
}

// Node-only: checkpoint files from a local folder. Weights are not read here: safetensors headers
// are read in parts, and onnxruntime reads (maps) the tensors from the files itself.
import { open, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { FileSource, RandomAccessFile } from './file-source.ts';

/** the operation's result; null when the file does not exist */
const unlessMissing = <T>(op: Promise<T>): Promise<T | null> =>
  op.catch((e: unknown) => {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  });

export function localSource(dir: string): FileSource {
  return {
    describe: (file) => path.join(dir, file),
    async read(file, opts) {
      opts?.signal?.throwIfAborted();
      const b = await unlessMissing(readFile(path.join(dir, file)));
      if (!b) return null;
      opts?.onProgress?.({ file, loaded: b.length, total: b.length });
      return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    },
    async open(file, opts): Promise<RandomAccessFile | null> {
      opts?.signal?.throwIfAborted();
      const full = path.resolve(dir, file);
      const stats = await unlessMissing(stat(full));
      if (!stats) return null;
      const { size } = stats;
      return {
        size,
        path: full,
        async read(offset, length) {
          if (offset < 0 || offset + length > size)
            throw new RangeError(`${full}: bytes [${offset}, ${offset + length}) lie outside the ${size}-byte file`);
          const fh = await open(full, 'r');
          try {
            const out = new Uint8Array(length);
            let done = 0;
            while (done < length) {
              const { bytesRead } = await fh.read(out, done, length - done, offset + done);
              if (bytesRead === 0)
                throw new Error(`${full}: file ended at ${offset + done} while reading ${length} bytes at ${offset}`);
              done += bytesRead;
            }
            return out;
          } finally {
            await fh.close();
          }
        },
      };
    },
  };
}

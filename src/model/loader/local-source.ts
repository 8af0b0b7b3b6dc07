// Node-only: checkpoint files from a local folder.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FileSource } from './file-source.ts';

export function localSource(dir: string): FileSource {
  return {
    describe: (file) => path.join(dir, file),
    async read(file, opts) {
      opts?.signal?.throwIfAborted();
      try {
        const b = await readFile(path.join(dir, file));
        opts?.onProgress?.({ file, loaded: b.length, total: b.length });
        return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw e;
      }
    },
  };
}

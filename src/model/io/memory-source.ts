// Checkpoint files held in memory (demo checkpoints, tests).
import type { FileSource } from './file-source.ts';

export function memorySource(
  files: readonly { path: string; bytes: Uint8Array }[],
  subfolder = '',
  label = 'memory',
): FileSource {
  const prefix = subfolder ? `${subfolder.replace(/\/+$/, '')}/` : '';
  const byPath = new Map(files.map((f) => [f.path, f.bytes]));
  return {
    describe: (file) => `${label}:${prefix}${file}`,
    async read(file, opts) {
      opts?.signal?.throwIfAborted();
      const b = byPath.get(`${prefix}${file}`);
      if (b) opts?.onProgress?.({ file, loaded: b.length, total: b.length });
      return b ?? null;
    },
  };
}

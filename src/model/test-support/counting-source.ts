// A checkpoint folder as a source read in parts (like Range requests), counting what is read: the
// length of each part and how often a file was taken whole as a Blob (only when `blobs` is on).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { localSource } from '../io/local-source.ts';
import type { FileSource } from '../io/file-source.ts';

export interface CountingSource {
  source: FileSource;
  /** the length of every part read, in order */
  reads: number[];
  bytesRead(): number;
  /** files taken whole as a Blob */
  blobs(): number;
}

export function countingSource(dir: string, opts: { blobs?: boolean } = {}): CountingSource {
  const local = localSource(dir);
  const reads: number[] = [];
  let blobs = 0;
  return {
    reads,
    bytesRead: () => reads.reduce((a, b) => a + b, 0),
    blobs: () => blobs,
    source: {
      describe: local.describe,
      read: local.read,
      async open(file) {
        const whole = new Uint8Array(readFileSync(path.join(dir, file)));
        return {
          size: whole.length,
          read: async (offset, length) => {
            reads.push(length);
            return whole.slice(offset, offset + length);
          },
          ...(opts.blobs
            ? {
                blob: () => {
                  blobs++;
                  return new Blob([whole]);
                },
              }
            : {}),
        };
      },
    },
  };
}

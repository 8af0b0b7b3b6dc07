// The checksum a stored chunk is written with and checked against when read back
// (stored-chunks.ts). Computed in JavaScript as the bytes pass, a piece at a time, so that neither
// a chunk streaming from the hub nor one read back from disk is held whole for it (crypto.subtle
// digests only a whole buffer). Two lanes of MurmurHash3's 32-bit block step over alternate words:
// each step is a bijection of the lane's state for a fixed word and of the word for a fixed state,
// so bytes that differ within one word (any single flipped byte) always give another sum.
// Its cost per GiB is measured by `npm run bench -- convert` (docs/model-streaming.md); not a defence against a forger.

/** the checksum's name, recorded in an entry's meta: an entry without it (or with another) is not read */
export const CHUNK_SUM = 'murmur3x2-v1';

/** bytes hashed per pass over the scratch buffer */
const SCRATCH = 256 * 1024;

const C1 = 0xcc9e2d51;
const C2 = 0x1b873593;

const step = (h: number, word: number): number => {
  let k = Math.imul(word, C1);
  k = (k << 15) | (k >>> 17);
  h ^= Math.imul(k, C2);
  h = (h << 13) | (h >>> 19);
  return (Math.imul(h, 5) + 0xe6546b64) | 0;
};

const finalMix = (h: number, length: number): number => {
  h ^= length;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
};

export class ChunkSum {
  private h1 = 0x9747b28c | 0;
  private h2 = 0x2f6b1e3d | 0;
  private length = 0;
  private readonly scratch = new Uint8Array(SCRATCH + 8);
  private readonly words = new Int32Array(this.scratch.buffer);
  /** bytes at the start of the scratch buffer not hashed yet (fewer than a pair of words) */
  private carry = 0;

  update(bytes: Uint8Array): this {
    this.length += bytes.length;
    for (let at = 0; at < bytes.length;) {
      const n = Math.min(SCRATCH, bytes.length - at);
      this.scratch.set(bytes.subarray(at, at + n), this.carry);
      const filled = this.carry + n;
      const pairs = filled >>> 3;
      this.mix(pairs);
      this.scratch.copyWithin(0, pairs * 8, filled);
      this.carry = filled - pairs * 8;
      at += n;
    }
    return this;
  }

  private mix(pairs: number): void {
    const w = this.words;
    let { h1, h2 } = this;
    for (let i = 0; i < 2 * pairs; i += 2) {
      h1 = step(h1, w[i]!);
      h2 = step(h2, w[i + 1]!);
    }
    this.h1 = h1;
    this.h2 = h2;
  }

  /** the sum of every byte given so far, as 16 hex digits */
  digest(): string {
    if (this.carry > 0) {
      this.scratch.fill(0, this.carry, 8);
      this.mix(1);
      this.carry = 0;
    }
    const hex = (h: number) => h.toString(16).padStart(8, '0');
    return hex(finalMix(this.h1, this.length)) + hex(finalMix(this.h2, this.length));
  }
}

/** `body` passed through, each piece added to `sum` as it goes */
export const summed = (body: ReadableStream<Uint8Array>, sum: ChunkSum): ReadableStream<Uint8Array> =>
  body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(piece, out) {
        sum.update(piece);
        out.enqueue(piece);
      },
    }),
  );

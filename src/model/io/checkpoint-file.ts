// A checkpoint's weight files as graphs and sessions take them: readable in parts, named as the
// graphs' external-data locations, with the safetensors header read from the first bytes alone.
import {
  SafetensorsError,
  parseSafetensorsHeader,
  readHeaderLength,
  type SafetensorsHeader,
} from './safetensors/read.ts';
import type { FileSource, RandomAccessFile, ReadOptions } from './file-source.ts';
import { WEIGHTS_INDEX_NAME, WEIGHTS_NAME, parseShardIndex, shardFiles } from './safetensors/index-file.ts';
import { collectWeights, type WeightFile, type WeightSet } from './safetensors/weight-set.ts';

/** one weight file of a checkpoint, by its name in the checkpoint */
export interface CheckpointFile extends RandomAccessFile {
  name: string;
  /** path or URL, for messages */
  describe: string;
  /** the whole file, when the source delivered it whole */
  bytes?: Uint8Array;
}

export type CheckpointFiles = ReadonlyMap<string, CheckpointFile>;

export function fileFromBytes(name: string, describe: string, bytes: Uint8Array): CheckpointFile {
  return {
    name,
    describe,
    size: bytes.length,
    bytes,
    read: async (offset, length) => {
      if (offset < 0 || offset + length > bytes.length)
        throw new RangeError(
          `${describe}: bytes [${offset}, ${offset + length}) lie outside the ${bytes.length}-byte file`,
        );
      return bytes.subarray(offset, offset + length);
    },
  };
}

/** a Blob read in parts (safetensors headers) and handed whole to a session */
export const blobFile = (blob: Blob): RandomAccessFile => ({
  size: blob.size,
  read: async (offset, length) => new Uint8Array(await blob.slice(offset, offset + length).arrayBuffer()),
  blob: () => blob,
});

/** the weight file `name` of `source`: opened for reads in parts where the source can, else read whole; null when absent */
export async function openWeightFile(
  source: FileSource,
  name: string,
  opts: ReadOptions,
): Promise<CheckpointFile | null> {
  const describe = source.describe(name);
  if (source.open) {
    const f = await source.open(name, opts);
    return f && { ...f, name, describe };
  }
  const bytes = await source.read(name, opts);
  return bytes && fileFromBytes(name, describe, bytes);
}

/** the header, and the bytes it was read from (its 8-byte length and the JSON): what a later reader of the file may be handed */
export async function readSafetensorsHead(
  f: RandomAccessFile,
  describe: string,
): Promise<{ header: SafetensorsHeader; head: Uint8Array }> {
  if (f.size < 8)
    throw new SafetensorsError(`${describe}: truncated, ${f.size} bytes is shorter than the 8-byte header length`);
  const length = await f.read(0, 8);
  const n = readHeaderLength(length, describe);
  if (8 + n > f.size)
    throw new SafetensorsError(
      `${describe}: truncated, header says ${n} bytes but the file has ${f.size - 8} after the length`,
    );
  const json = await f.read(8, n);
  const head = new Uint8Array(8 + n);
  head.set(length);
  head.set(json, 8);
  return { header: parseSafetensorsHeader(json, f.size, describe), head };
}

/** a checkpoint's weights and the files they lie in */
export type CheckpointWeights = Pick<FolderWeights, 'weights' | 'files'>;

/** the weight files of a diffusers model folder (one file, or shards named by an index) and their headers */
export interface FolderWeights {
  weights: WeightSet;
  files: CheckpointFiles;
  /** the index or the single file, for messages about the weights as a whole */
  describe: string;
}

/**
 * Opens a model folder's weights: the shards its index names, else the one weights file; reads each
 * header (the tensors stay in the files). `fail` makes the error of the model being loaded.
 */
export async function openFolderWeights(
  source: FileSource,
  opts: ReadOptions,
  fail: (message: string) => Error,
): Promise<FolderWeights> {
  const indexBytes = await source.read(WEIGHTS_INDEX_NAME, opts);
  const files = new Map<string, CheckpointFile>();
  const parsed: WeightFile[] = [];
  const add = async (f: CheckpointFile) => {
    files.set(f.name, f);
    const { header } = await readSafetensorsHead(f, f.describe);
    parsed.push(f.bytes ? { name: f.name, header, bytes: f.bytes } : { name: f.name, header });
  };
  if (indexBytes) {
    const indexFile = source.describe(WEIGHTS_INDEX_NAME);
    const index = parseShardIndex(new TextDecoder().decode(indexBytes), indexFile);
    for (const shard of shardFiles(index)) {
      const f = await openWeightFile(source, shard, opts);
      if (!f) throw fail(`${source.describe(shard)} not found (named in ${indexFile})`);
      await add(f);
    }
    return { weights: collectWeights(parsed, { index, file: indexFile }), files, describe: indexFile };
  }
  const f = await openWeightFile(source, WEIGHTS_NAME, opts);
  if (!f) throw fail(`neither ${source.describe(WEIGHTS_NAME)} nor ${source.describe(WEIGHTS_INDEX_NAME)} exists`);
  await add(f);
  return { weights: collectWeights(parsed), files, describe: source.describe(WEIGHTS_NAME) };
}

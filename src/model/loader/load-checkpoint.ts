// Reads config.json and the safetensors headers (single file or shards + index) of a diffusers
// transformer. Tensor bytes stay where they are: sources that can be read in parts (local files)
// are not read past their headers; sessions take the tensors from the files.
import { parseConfig, type ConsisIDConfig } from '../config.ts';
import { WEIGHTS_INDEX_NAME, WEIGHTS_NAME, parseShardIndex, shardFiles } from '../safetensors/index-file.ts';
import {
  SafetensorsError,
  parseSafetensorsHeader,
  readHeaderLength,
  type SafetensorsHeader,
} from '../safetensors/read.ts';
import { collectWeights, weightShapes, type WeightFile, type WeightSet } from '../safetensors/weight-set.ts';
import { checkParameters } from '../graph/parameters.ts';
import type { FileSource, RandomAccessFile, ReadOptions } from './file-source.ts';

/** one weight file of a checkpoint, by its name in the checkpoint */
export interface CheckpointFile extends RandomAccessFile {
  name: string;
  /** path or URL, for messages */
  describe: string;
  /** the whole file, when the source delivered it whole */
  bytes?: Uint8Array;
}

export type CheckpointFiles = ReadonlyMap<string, CheckpointFile>;

export interface Checkpoint {
  config: ConsisIDConfig;
  weights: WeightSet;
  /** the weight files, by the names graphs use as external-data locations */
  files: CheckpointFiles;
}

export type LoadOptions = ReadOptions;

export class CheckpointError extends Error {
  override name = 'CheckpointError';
}

async function required(source: FileSource, file: string, opts: LoadOptions): Promise<Uint8Array> {
  const bytes = await source.read(file, opts);
  if (!bytes) throw new CheckpointError(`${source.describe(file)} not found`);
  return bytes;
}

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

async function openWeightFile(source: FileSource, name: string, opts: LoadOptions): Promise<CheckpointFile | null> {
  const describe = source.describe(name);
  if (source.open) {
    const f = await source.open(name, opts);
    return f && { ...f, name, describe };
  }
  const bytes = await source.read(name, opts);
  return bytes && fileFromBytes(name, describe, bytes);
}

/** the safetensors header of a file read in parts: its first 8 bytes, then the JSON */
export async function readSafetensorsHeaderFrom(f: RandomAccessFile, describe: string): Promise<SafetensorsHeader> {
  return (await readSafetensorsHead(f, describe)).header;
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

async function readWeightFile(f: CheckpointFile): Promise<WeightFile> {
  const header = await readSafetensorsHeaderFrom(f, f.describe);
  return f.bytes ? { name: f.name, header, bytes: f.bytes } : { name: f.name, header };
}

export async function loadCheckpoint(source: FileSource, opts: LoadOptions = {}): Promise<Checkpoint> {
  const configText = new TextDecoder().decode(await required(source, 'config.json', opts));
  let raw: unknown;
  try {
    raw = JSON.parse(configText);
  } catch (e) {
    throw new CheckpointError(`${source.describe('config.json')}: not valid JSON (${(e as Error).message})`, {
      cause: e,
    });
  }
  const config = parseConfig(raw, source.describe('config.json'));
  const indexBytes = await source.read(WEIGHTS_INDEX_NAME, opts);
  const files = new Map<string, CheckpointFile>();
  let weights: WeightSet;
  if (indexBytes) {
    const indexFile = source.describe(WEIGHTS_INDEX_NAME);
    const index = parseShardIndex(new TextDecoder().decode(indexBytes), indexFile);
    const parsed: WeightFile[] = [];
    for (const shard of shardFiles(index)) {
      const f = await openWeightFile(source, shard, opts);
      if (!f) throw new CheckpointError(`${source.describe(shard)} not found`);
      files.set(shard, f);
      parsed.push(await readWeightFile(f));
    }
    weights = collectWeights(parsed, { index, file: indexFile });
  } else {
    const f = await openWeightFile(source, WEIGHTS_NAME, opts);
    if (!f)
      throw new CheckpointError(
        `neither ${source.describe(WEIGHTS_NAME)} nor ${source.describe(WEIGHTS_INDEX_NAME)} exists`,
      );
    files.set(WEIGHTS_NAME, f);
    weights = collectWeights([await readWeightFile(f)]);
  }
  checkParameters(config, weightShapes(weights), source.describe(indexBytes ? WEIGHTS_INDEX_NAME : WEIGHTS_NAME));
  return { config, weights, files };
}

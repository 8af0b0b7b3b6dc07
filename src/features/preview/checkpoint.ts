// A checkpoint as the page knows it after its inspection (worker/inspect.ts): what it holds, and
// how much of it the browser cache stores. Plain data: it comes from the worker in a message.
import type {
  ConsisIDConfig,
  HubRepo,
  InputLimits,
  InputSpec,
  SafetensorsHeader,
  WeightSet,
} from '../../model/index.ts';

/** a checkpoint folder on the hub; serializable (it goes to the workers) */
export type CheckpointRef = Required<Pick<HubRepo, 'hubUrl' | 'repoId' | 'subfolder' | 'revision'>> & {
  token: string | null;
};

export interface WeightFile {
  name: string;
  header: SafetensorsHeader;
  /** the bytes the header was read from: the model worker reads them from here instead of asking the hub again */
  head: Uint8Array;
  url: string;
  size: number;
  etag: string | null;
  tensors: number;
  params: number;
  dtypes: Record<string, number>;
  cached: boolean;
  /** bytes in the browser cache: all of them when cached, else the chunks a stopped download or a run stored */
  storedBytes: number;
}

export interface CheckpointInfo {
  ref: CheckpointRef;
  rawConfig: Record<string, unknown>;
  config: ConsisIDConfig;
  /** what the inputs panel allows for this config, and the inputs a run starts with */
  limits: InputLimits;
  spec: InputSpec;
  files: WeightFile[];
  /** every tensor as the headers describe it (no bytes) */
  weights: WeightSet;
  params: number;
  /** parameters per safetensors dtype */
  dtypes: Record<string, number>;
  /** bytes of the weight files */
  downloadBytes: number;
  /** where downloadBytes comes from: the files' headers, the shard index's total_size (a refused checkpoint's files are never asked for), or nowhere */
  downloadFrom: 'files' | 'index' | 'unknown';
  /** bytes still to download (not in the browser cache) */
  missingBytes: number;
  /** why the checkpoint is refused before its weights are touched (no header read); null when it fits */
  refused: string | null;
}

export const missingBytes = (files: readonly WeightFile[]) => files.reduce((a, f) => a + f.size - f.storedBytes, 0);

/** the inspection with the stored bytes of its files as the cache's listing (in their order) counts them */
export function withStored(info: CheckpointInfo, listed: readonly { bytes: number }[]): CheckpointInfo {
  const stored = info.files.map((f, i) => ({
    cached: listed[i]?.bytes === f.size,
    storedBytes: listed[i]?.bytes ?? 0,
  }));
  if (stored.every((s, i) => s.storedBytes === info.files[i]!.storedBytes && s.cached === info.files[i]!.cached))
    return info;
  const files = info.files.map((f, i) => ({ ...f, ...stored[i]! }));
  return { ...info, files, missingBytes: missingBytes(files) };
}

export interface DownloadProgress {
  file: string;
  loaded: number;
  total: number;
  /** over all files still to download */
  overallLoaded: number;
  overallTotal: number;
}

// A checkpoint as its inspection (inspect-checkpoint.ts) finds it: what it holds, and how much of it
// the browser cache stores. Plain data: it goes from a worker to the page in a message.
import type { ConsisIDConfig } from '../graph/config.ts';
import type { HubRepo } from '../io/hub-files.ts';
import type { SafetensorsHeader } from '../io/safetensors/read.ts';
import type { WeightSet } from '../io/safetensors/weight-set.ts';
import type { InputLimits, InputSpec } from '../graph/input-spec.ts';

/** a checkpoint folder on the hub; serializable (it goes to the workers) */
export type CheckpointRef = Required<Pick<HubRepo, 'hubUrl' | 'repoId' | 'subfolder' | 'revision'>> & {
  token: string | null;
};

export interface InspectedFile {
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
  files: InspectedFile[];
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
  /** the VAE that decodes the latents (the vae/ folder beside), or why there is none to decode with */
  vae: VaeFolderInfo;
}

/** a checkpoint's VAE folder as inspected: its config and weight files; or why it cannot decode */
export type VaeFolderInfo =
  { ref: CheckpointRef; rawConfig: Record<string, unknown>; files: InspectedFile[]; bytes: number } | { error: string };

export const missingBytes = (files: readonly InspectedFile[]) => files.reduce((a, f) => a + f.size - f.storedBytes, 0);

export interface CheckpointProgress {
  file: string;
  loaded: number;
  total: number;
  /** over all files still to download */
  overallLoaded: number;
  overallTotal: number;
}

// The VAE decoder loaded like the transformer: a repository id (its `vae` subfolder) on a hub, or a
// local folder where the environment has local folders (Node); sessions on the environment's backend.
import type { ModelEnvironment } from '../../runtime/environment.ts';
import type { FileSource, ReadOptions } from '../../io/file-source.ts';
import { hubSource } from '../../io/hub-files.ts';
import type { Device } from '../../runtime/types.ts';
import { VaeDecoder } from './decoder.ts';
import { loadVae } from './load.ts';
import { checkVaePrecision, type VaePrecision } from './precision.ts';
import { conversionOf } from '../../convert/converted-source.ts';

export interface VaeFromPretrainedOptions extends ReadOptions {
  environment: ModelEnvironment;
  /** the VAE's folder in the repository or local folder (default 'vae') */
  subfolder?: string;
  revision?: string;
  hubUrl?: string;
  token?: string;
  device?: Device;
  threads?: number;
  /** float32 (default) or float16 weights and compute (WebGPU: the adapter's shader-f16); int8/int4 are the transformer's only */
  weights?: VaePrecision;
  /** files from elsewhere (a cache, memory, a convertedSource converting them to `weights`): taken as the VAE folder itself */
  source?: FileSource;
  /** sessions the decoder keeps at once (VaeDecoderOptions.maxSessions) */
  maxSessions?: number;
}

export async function vaeFromPretrained(repoIdOrPath: string, opts: VaeFromPretrainedOptions): Promise<VaeDecoder> {
  // before anything is read: a bad option fails without a download
  const weights = checkVaePrecision(opts.weights ?? 'float32');
  const env = opts.environment;
  const subfolder = opts.subfolder ?? 'vae';
  let source = opts.source ?? null;
  if (!source && !opts.hubUrl)
    source = await env.localSource(subfolder ? `${repoIdOrPath.replace(/\/+$/, '')}/${subfolder}` : repoIdOrPath);
  source ??= hubSource({
    repoId: repoIdOrPath,
    subfolder,
    ...(opts.hubUrl ? { hubUrl: opts.hubUrl } : {}),
    ...(opts.revision ? { revision: opts.revision } : {}),
    ...(opts.token ? { token: opts.token } : {}),
  });
  const conversion = conversionOf(source, weights);
  const checkpoint = await loadVae(source, {
    ...(opts.signal ? { signal: opts.signal } : {}),
    ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
  });
  return new VaeDecoder(checkpoint, {
    backend: await env.backend(),
    device: opts.device ?? env.defaultDevice,
    weights,
    ...conversion,
    ...(opts.threads ? { threads: opts.threads } : {}),
    ...(opts.maxSessions ? { maxSessions: opts.maxSessions } : {}),
  });
}

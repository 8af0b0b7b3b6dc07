// Node entry: ConsisIDTransformer3DModel and the VAE decoder with local folders and onnxruntime-node ("cpu"), plus
// onnxruntime-web's WASM build ("wasm").
import { stat } from 'node:fs/promises';
import { ConsisIDTransformer3DModel as BaseModel } from './models/consisid/consisid-model.ts';
import type { FromPretrainedOptions } from './models/consisid/model-options.ts';
import type { ModelEnvironment } from './runtime/environment.ts';
import { localSource } from './io/local-source.ts';
import {
  vaeFromPretrained as baseVaeFromPretrained,
  type VaeFromPretrainedOptions,
} from './models/vae/from-pretrained.ts';
import type { VaeDecoder } from './models/vae/decoder.ts';

export const nodeEnvironment: ModelEnvironment = {
  backend: async () => (await import('./runtime/node.ts')).nodeBackend(),
  async localSource(path) {
    const s = await stat(path).catch(() => null);
    return s?.isDirectory() ? localSource(path) : null;
  },
  defaultDevice: 'cpu',
};

export class ConsisIDTransformer3DModel extends BaseModel {
  static override fromPretrained(repoIdOrPath: string, opts: FromPretrainedOptions = {}): Promise<BaseModel> {
    return BaseModel.fromPretrained(repoIdOrPath, { environment: nodeEnvironment, ...opts });
  }
}

/** the checkpoint's VAE decoder (its vae/ folder) from a local folder or a hub repository, on onnxruntime-node */
export const vaeFromPretrained = (
  repoIdOrPath: string,
  opts: Partial<VaeFromPretrainedOptions> = {},
): Promise<VaeDecoder> => baseVaeFromPretrained(repoIdOrPath, { environment: nodeEnvironment, ...opts });

export type { FromPretrainedOptions };

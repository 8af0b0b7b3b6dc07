// Node entry: ConsisIDTransformer3DModel with local folders and onnxruntime-node ("cpu"), plus
// onnxruntime-web's WASM build ("wasm").
import { stat } from 'node:fs/promises';
import { ConsisIDTransformer3DModel as BaseModel, type FromPretrainedOptions } from './consisid-model';
import type { ModelEnvironment } from './environment';
import { localSource } from './loader/local-source';

export const nodeEnvironment: ModelEnvironment = {
  backend: async () => (await import('./runtime/node')).nodeBackend(),
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

export type { FromPretrainedOptions };

// Node entry: ConsisIDTransformer3DModel with local folders and onnxruntime-node ("cpu"), plus
// onnxruntime-web's WASM build ("wasm").
import { stat } from 'node:fs/promises';
import { ConsisIDTransformer3DModel as BaseModel } from './models/consisid/consisid-model.ts';
import type { FromPretrainedOptions } from './models/consisid/model-options.ts';
import type { ModelEnvironment } from './runtime/environment.ts';
import { localSource } from './io/local-source.ts';

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

export type { FromPretrainedOptions };

// The decomposed attention (what WebGPU adapters with narrow subgroups get) is the fused
// MultiHeadAttention's math: same outputs on every fixture, on onnxruntime-node's CPU kernels.
import { describe, expect, it } from 'vitest';
import { nodeBackend } from '../runtime/node.ts';
import { sessionModel } from '../runtime/session-model.ts';
import { loadCheckpoint } from '../models/consisid/load-checkpoint.ts';
import { localSource } from '../io/local-source.ts';
import { prepareForward } from '../models/consisid/forward-inputs.ts';
import { FIXTURE_CASES, fixtureDir, loadFixture, relativeError } from '../test-support/fixtures.ts';
import { buildConsisIDGraph } from './transformer.ts';
import type { AttentionKernel } from './context.ts';

describe('attention: decomposed equals fused', () => {
  for (const name of FIXTURE_CASES) {
    it(`${name}: within 1e-6 of the fused graph, with no MultiHeadAttention node`, async () => {
      const f = loadFixture(name);
      const { config, weights, files } = await loadCheckpoint(localSource(fixtureDir(name)));
      const { shape, feeds } = prepareForward(config, f.args);
      const run = async (attention: AttentionKernel) => {
        const built = buildConsisIDGraph(config, weights, shape, { attention, foldAttention: 'never' });
        const ops = new Set(built.model.graph.nodes.map((n) => n.opType));
        const session = await nodeBackend().createSession(await sessionModel(built.model, files), { device: 'cpu' });
        try {
          return { ops, out: (await session.run(feeds)).sample!.data };
        } finally {
          await session.release();
        }
      };
      const fused = await run('fused');
      const decomposed = await run('decomposed');
      expect(fused.ops.has('MultiHeadAttention')).toBe(true);
      expect(decomposed.ops.has('MultiHeadAttention')).toBe(false);
      expect(relativeError(decomposed.out, fused.out)).toBeLessThan(1e-6);
      expect(relativeError(decomposed.out, f.expected)).toBeLessThanOrEqual(
        f.meta.tolerance.max_abs_error_relative_to_max_abs_expected,
      );
    });
  }
});

// The graphs of a ConsisID model for one set of input shapes on one device: whole or in
// segments, over the checkpoint's tensors or the same converted for the precision as they
// download, and how to create their session.
import type { Checkpoint } from './load-checkpoint.ts';
import type { RuntimeOptions } from './model-options.ts';
import {
  buildConsisIDGraph,
  type BlockRange,
  type BuildOptions,
  type BuiltGraph,
  type GraphShape,
} from '../../graph/transformer.ts';
import { buildConsisIDSegments } from '../../graph/segments.ts';
import type { AttentionKernel } from '../../graph/context.ts';
import type { WeightSet } from '../../io/safetensors/weight-set.ts';
import { timedStage, type ModelEvents } from '../../runtime/events.ts';
import { createSegmentedSession } from '../../runtime/segmented-session.ts';
import { sessionModel } from '../../runtime/session-model.ts';
import type { BackendSession, Device, SessionOptions } from '../../runtime/types.ts';
import { planSegments } from '../../plan/segment-plan.ts';
import { withDefaultLimits } from '../../plan/plan.ts';
import { quantizationFor, type WeightPrecision } from '../../plan/precision.ts';
import { graphWeights } from '../../convert/converted-source.ts';
import type { CheckpointFiles } from '../../io/checkpoint-file.ts';
import type { Precomputed } from '../../onnx/computed-weights.ts';

export interface PreparedGraph {
  outputShape: readonly number[];
  /** creates its session (or its segments' sessions, one after another) */
  open(opts: SessionOptions): Promise<BackendSession>;
}

export class ConsisIDGraphs {
  /** how WebGPU graphs write attention: the option, else what the backend says once asked */
  private webgpuAttention: AttentionKernel | undefined;

  constructor(
    private readonly checkpoint: Checkpoint,
    private readonly runtime: RuntimeOptions,
    /** how the weights are held (a float16 compute holds them in float16) */
    readonly precision: WeightPrecision,
  ) {
    this.webgpuAttention = runtime.webgpuAttention;
  }

  /** the ONNX graph for one set of input shapes, with the ops the device runs fastest (and exactly) */
  build(shape: GraphShape, device: Device, weights: WeightSet = this.checkpoint.weights): BuiltGraph {
    return buildConsisIDGraph(this.checkpoint.config, weights, shape, this.buildOptions(device));
  }

  private buildOptions(device: Device): BuildOptions {
    const quantization = quantizationFor(this.precision, device);
    const attention = device === 'webgpu' ? (this.webgpuAttention ?? 'fused') : 'fused';
    return { dtype: this.runtime.dtype, quantization, attention, widenBfloat16: device === 'webgpu' };
  }

  /** the segments' block ranges for these shapes on `device`, or null for one session */
  segmentsFor(shape: GraphShape, device: Device): BlockRange[] | null {
    const { segments: choice, segmentLimits: limits } = this.runtime;
    if (choice === undefined) return null;
    const planned = planSegments(this.checkpoint.config, shape, {
      device,
      weights: this.precision,
      segments: choice,
      limits: limits?.gpu && withDefaultLimits(limits.gpu),
      heapBudget: limits?.heapBudget,
      weightSet: this.checkpoint.weights,
      attention: this.buildOptions(device).attention,
    }).segments.map(({ from, to }) => ({ from, to }));
    return planned.length > 1 ? planned : null;
  }

  /** devices whose graphs are the same (the quantized ops and the attention may differ on WebGPU); segments are planned per device */
  same(a: Device, b: Device): boolean {
    if (this.runtime.segments !== undefined) return a === b;
    if ((a === 'webgpu') === (b === 'webgpu')) return true;
    return quantizationFor(this.precision, a) === null && this.webgpuAttention !== 'decomposed';
  }

  /** what graphs are built over: the checkpoint's tensors, or the same converted for the precision as they download */
  private async weightsFor(
    shape: GraphShape,
    device: Device,
  ): Promise<{ weights: WeightSet; files: CheckpointFiles; precomputed?: Precomputed }> {
    return graphWeights(this.checkpoint, this.runtime.converter, this.precision, () => this.build(shape, device).model);
  }

  /**
   * The graph (or the segments' graphs) for these shapes, and how to make its session. One graph's
   * weights are taken here; segments' are taken each in its turn while their sessions are made.
   */
  prepare(shape: GraphShape, device: Device, events: ModelEvents): Promise<PreparedGraph> {
    return timedStage(events, 'graph', device, async () => {
      if (device === 'webgpu') this.webgpuAttention ??= (await this.runtime.backend.webgpuAttention?.()) ?? 'fused';
      const { backend } = this.runtime;
      const { weights, files, precomputed } = await this.weightsFor(shape, device);
      const segments = this.segmentsFor(shape, device);
      if (segments) {
        const built = buildConsisIDSegments(
          this.checkpoint.config,
          weights,
          shape,
          segments,
          this.buildOptions(device),
        );
        return {
          outputShape: built.at(-1)!.outputShape,
          open: (opts) =>
            createSegmentedSession(
              built.map((b, index) => () => {
                events.onSegment?.({ index, count: built.length, device: opts.device });
                return sessionModel(b.model, files, { blobsInParts: true, precomputed });
              }),
              // a segment's outputs feed the next one: where the sample stays on the device, so do they
              (model) =>
                backend.createSession(model, {
                  ...opts,
                  ...(opts.deviceOutputs ? { deviceOutputs: model.model.graph.outputs.map((o) => o.name) } : {}),
                }),
            ),
        };
      }
      const built = this.build(shape, device, weights);
      const model = await sessionModel(built.model, files, { precomputed });
      return { outputShape: built.outputShape, open: (opts) => backend.createSession(model, opts) };
    });
  }
}

// A checkpoint with its tensors converted for one precision (converted-file.ts), as a graph and a
// session take it: the weight set points the graph's float tensors into the converted files, and
// the quantized products take their outputs from the stored quantized tensors (row ranges of them
// stacked as the graph stacks them) instead of computing them when the session is made.
import type { CheckpointFile, CheckpointFiles, CheckpointWeights } from '../io/checkpoint-file.ts';
import type { ComputedGroup } from '../onnx/onnx-proto.ts';
import type { SafetensorsHeader } from '../io/safetensors/read.ts';
import type { WeightEntry, WeightSet } from '../io/safetensors/weight-set.ts';
import { f32ToF16 } from '../io/safetensors/dtype.ts';
import { quantizedRow } from '../graph/quantize.ts';
import type { ConversionPlan } from './conversion-plan.ts';
import { storedConversions } from './converted-file.ts';
import { quantizedName, sameConversion, scalesName, type TensorConversion } from './tensor-conversion.ts';

export class ConvertedCheckpoint {
  /** the original weights, with each tensor converted to a float form pointing into its converted file */
  readonly weights: WeightSet;
  /** the original files and the converted ones, by name */
  readonly files: CheckpointFiles;
  private readonly conversions = new Map<string, TensorConversion>();
  /** each converted part where it lies */
  private readonly parts = new Map<string, WeightEntry>();

  /** `converted`: each converted file, readable in parts and whole, with its header */
  constructor(original: CheckpointWeights, converted: readonly { file: CheckpointFile; header: SafetensorsHeader }[]) {
    const files = new Map(original.files);
    for (const { file, header } of converted) {
      files.set(file.name, file);
      for (const [name, c] of storedConversions(header)) this.conversions.set(name, c);
      for (const [name, t] of header.tensors) this.parts.set(name, { ...t, file: file.describe, fileName: file.name });
    }
    this.files = files;
    this.weights = new Map(
      [...original.weights].map(([name, e]) => {
        const c = this.conversions.get(name);
        const part = this.parts.get(name);
        return [name, part && (c?.kind === 'keep' || c?.kind === 'float16') ? part : e];
      }),
    );
  }

  /** every tensor of the plan is here in the plan's form */
  covers(plan: ConversionPlan): boolean {
    return [...plan].every(([name, c]) => {
      const had = this.conversions.get(name);
      return !!had && sameConversion(had, c);
    });
  }

  /** the group's outputs (q, scales) from the stored quantized tensors; null when they are not stored in its format */
  precomputed = (group: ComputedGroup): Promise<Uint8Array[]> | null => {
    const spec = group.quantized;
    if (!spec) return null;
    const per = quantizedRow(spec.format, spec.k);
    const reads: { q: WeightEntry; s: WeightEntry; rows: readonly [number, number] }[] = [];
    for (const p of spec.parts) {
      const c = this.conversions.get(p.tensor);
      const q = this.parts.get(quantizedName(p.tensor));
      const s = this.parts.get(scalesName(p.tensor));
      if (!c || !q || !s || !sameConversion(c, spec.format)) return null;
      reads.push({ q, s, rows: p.rows });
    }
    return (async () => {
      const rows = spec.parts.reduce((n, p) => n + p.rows[1] - p.rows[0], 0);
      const q = new Uint8Array(rows * per.qBytes);
      const scales = new Uint8Array(rows * per.scales * 4);
      let row = 0;
      for (const r of reads) {
        const [r0, r1] = r.rows;
        q.set(await this.read(r.q, r0 * per.qBytes, (r1 - r0) * per.qBytes), row * per.qBytes);
        scales.set(await this.read(r.s, r0 * per.scales * 4, (r1 - r0) * per.scales * 4), row * per.scales * 4);
        row += r1 - r0;
      }
      if (spec.scales === 'float32') return [q, scales];
      const half = f32ToF16(new Float32Array(scales.buffer));
      return [q, new Uint8Array(half.buffer)];
    })();
  };

  private read(part: WeightEntry, offset: number, length: number): Promise<Uint8Array> {
    return this.files.get(part.fileName)!.read(part.offset + offset, length);
  }
}

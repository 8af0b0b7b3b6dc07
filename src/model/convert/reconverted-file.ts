// A converted checkpoint file computed again from its source, byte range by byte range: what a
// session reads in place of a stored converted file that can no longer be read (evicted, cut short,
// a failing disk). The header is the layout's; each tensor overlapping the range is read from its
// checkpoint file (the hub, through the loader) and converted again, as the stream converter did.
import type { WeightEntry } from '../io/safetensors/weight-set.ts';
import type { PlannedTensor } from './conversion-plan.ts';
import { partsBytes, type ConvertedFileLayout } from './converted-file.ts';
import { convertTensor, convertedLayout } from './tensor-conversion.ts';

interface Span extends PlannedTensor {
  /** bytes [start, end) of the converted file that the tensor's parts fill */
  start: number;
  end: number;
}

/** bytes [from, to) of the converted file laid out by `layout` from `tensors` (in its order), each tensor read by `read` */
export function reconvertedRanges(
  layout: ConvertedFileLayout,
  tensors: readonly PlannedTensor[],
  read: (t: WeightEntry) => Promise<Uint8Array>,
): (from: number, to: number) => Promise<Uint8Array> {
  const spans: Span[] = [];
  let at = layout.head.length;
  for (const t of tensors) {
    const bytes = partsBytes(convertedLayout(t.source, t.conversion));
    spans.push({ ...t, start: at, end: at + bytes });
    at += bytes;
  }
  // the tensor converted last: a chunk that ends inside a tensor is followed by one that starts there
  let last: { span: Span; bytes: Promise<Uint8Array> } | null = null;
  const converted = (span: Span): Promise<Uint8Array> => {
    if (last?.span !== span) {
      const bytes = (async () => {
        const parts = convertTensor(span.source, await read(span.source), span.conversion);
        const out = new Uint8Array(span.end - span.start);
        let o = 0;
        for (const p of parts) {
          out.set(p.bytes, o);
          o += p.bytes.length;
        }
        return out;
      })();
      last = { span, bytes };
    }
    return last.bytes;
  };
  return async (from, to) => {
    const out = new Uint8Array(to - from);
    const { head } = layout;
    if (from < head.length) out.set(head.subarray(from, Math.min(to, head.length)));
    for (const s of spans) {
      if (s.end <= from || s.start >= to) continue;
      const a = Math.max(from, s.start);
      const b = Math.min(to, s.end);
      out.set((await converted(s)).subarray(a - s.start, b - s.start), a - from);
    }
    return out;
  };
}

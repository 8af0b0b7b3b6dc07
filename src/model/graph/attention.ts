// Scaled dot-product attention over (B, S, H*D) queries and (B, L, H*D) keys/values, as the
// device's attention kernel runs it best and exactly.
import type { Value } from '../onnx/graph-builder.ts';
import { matmul, mul, multiHeadAttention, reshape, softmax, transpose } from '../onnx/ops.ts';
import { constT, type BuildContext } from './context.ts';

export function attention(ctx: BuildContext, q: Value, k: Value, v: Value, heads: number): Value {
  const { g } = ctx;
  if (ctx.attention !== 'decomposed') return multiHeadAttention(g, q, k, v, heads);
  const [b, s, qd] = q.dims as [number, number, number];
  const [, l, vd] = v.dims as [number, number, number];
  const dh = qd / heads;
  const perHead = (x: Value, len: number, width: number, perm: number[]) =>
    transpose(g, reshape(g, x, [b, len, heads, width / heads]), perm);
  // the softmax scale on the queries: S x D products instead of S x L
  const qh = perHead(q, s, qd, [0, 2, 1, 3]);
  const scaled = mul(g, qh, constT(ctx, [1 / Math.sqrt(dh)], [1], 'attention_scale'));
  const probs = softmax(g, matmul(g, scaled, perHead(k, l, qd, [0, 2, 3, 1])), -1);
  const out = matmul(g, probs, perHead(v, l, vd, [0, 2, 1, 3]));
  return reshape(g, transpose(g, out, [0, 2, 1, 3]), [b, s, vd]);
}

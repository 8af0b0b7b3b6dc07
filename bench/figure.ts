// One measured figure, printed as one JSON line by `npm run bench`.
export interface Figure {
  bench: string;
  metric: string;
  value: number | string;
  unit: string;
  /** Human-readable target, e.g. "< 1500" or ">= 0.75"; null when the figure is informative only. */
  target: string | null;
  /** Whether the target is met; null when there is no target. */
  ok: boolean | null;
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export function figure(
  bench: string,
  metric: string,
  value: number | string,
  unit: string,
  target?: { op: '<' | '<=' | '>' | '>='; value: number },
): Figure {
  if (!target || typeof value !== 'number') return { bench, metric, value, unit, target: null, ok: null };
  const ok =
    target.op === '<'
      ? value < target.value
      : target.op === '<='
        ? value <= target.value
        : target.op === '>'
          ? value > target.value
          : value >= target.value;
  return { bench, metric, value, unit, target: `${target.op} ${target.value}`, ok };
}

// At most one call per interval, and never a dropped last one: a call inside the interval is
// kept and made when the interval ends, with the latest value (a download whose last progress
// came right after the one before would otherwise show stale progress until the next chunk).

export interface LatestThrottle<T> {
  (value: T): void;
  /** drops a call still waiting */
  cancel(): void;
}

export function throttleLatest<T>(
  fn: (value: T) => void,
  intervalMs: number,
  now: () => number = () => performance.now(),
): LatestThrottle<T> {
  let last = -Infinity;
  let waiting: { value: T } | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const flush = () => {
    timer = null;
    if (!waiting) return;
    const { value } = waiting;
    waiting = null;
    last = now();
    fn(value);
  };
  const call = (value: T) => {
    waiting = { value };
    if (timer) return;
    const wait = last + intervalMs - now();
    if (wait <= 0) flush();
    else timer = setTimeout(flush, wait);
  };
  return Object.assign(call, {
    cancel() {
      if (timer) clearTimeout(timer);
      timer = null;
      waiting = null;
    },
  });
}

import { useEffect, useRef, useState } from 'react';

/**
 * The draft of a typed filter: it follows the applied value when that changes (back/forward,
 * Clear), and applies itself once typing pauses for `delayMs`, unless `invalid` finds a problem
 * (then the caller shows it, and Enter or a fix applies it).
 */
export function useDebouncedDraft(
  applied: string,
  apply: (draft: string) => void,
  delayMs: number,
  invalid?: (draft: string) => unknown,
): [string, (draft: string) => void] {
  const [draft, setDraft] = useState(applied);
  const latestApply = useRef(apply);
  useEffect(() => {
    latestApply.current = apply;
  });
  useEffect(() => setDraft(applied), [applied]);
  useEffect(() => {
    if (draft === applied || invalid?.(draft)) return;
    const t = setTimeout(() => latestApply.current(draft), delayMs);
    return () => clearTimeout(t);
  }, [draft, applied, delayMs, invalid]);
  return [draft, setDraft];
}

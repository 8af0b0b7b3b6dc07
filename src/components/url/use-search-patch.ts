import { useCallback } from 'react';
import { useSearchParams } from 'react-router-dom';

/**
 * The page's search params, and a setter that applies a patch of them: an empty string, null or
 * undefined removes the key, anything else is set as text. It replaces the history entry, so
 * filter changes do not pile up behind the Back button.
 */
export function useSearchPatch(): [URLSearchParams, (patch: object) => void] {
  const [sp, setSp] = useSearchParams();
  const patch = useCallback(
    (changes: object) =>
      setSp(
        (prev) => {
          const next = new URLSearchParams(prev);
          for (const [k, v] of Object.entries(changes) as [string, unknown][]) {
            if (v === '' || v === null || v === undefined) next.delete(k);
            else next.set(k, String(v));
          }
          return next;
        },
        { replace: true },
      ),
    [setSp],
  );
  return [sp, patch];
}

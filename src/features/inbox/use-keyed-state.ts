import { useCallback, useState, type SetStateAction } from 'react';

/**
 * State that starts over whenever `key` changes (the inbox resets selection and cursor per URL),
 * without remounting the list, so the previous page stays on screen while the next one loads.
 */
export function useKeyedState<T>(key: string, initial: () => T): [T, (next: SetStateAction<T>) => void] {
  const [state, setState] = useState(() => ({ key, value: initial() }));
  const value = state.key === key ? state.value : initial();
  const set = useCallback(
    (next: SetStateAction<T>) =>
      setState((prev) => {
        const base = prev.key === key ? prev.value : initial();
        return { key, value: typeof next === 'function' ? (next as (p: T) => T)(base) : next };
      }),
    // `initial` is a constant factory at every call site.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [key],
  );
  return [value, set];
}

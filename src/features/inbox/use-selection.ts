import { useCallback } from 'react';
import { useKeyedState } from './use-keyed-state.ts';

interface State {
  ids: ReadonlySet<string>;
  allMatching: boolean;
}
const empty = (): State => ({ ids: new Set(), allMatching: false });

/** Picked rows, or "everything matching the filters"; a new `key` (filters, page) starts empty. */
export function useSelection(key: string) {
  const [state, setState] = useKeyedState<State>(key, empty);
  const toggle = useCallback(
    (id: string) =>
      setState((prev) => {
        const ids = new Set(prev.ids);
        if (ids.has(id)) ids.delete(id);
        else ids.add(id);
        return { ids, allMatching: false };
      }),
    [setState],
  );
  const setPage = useCallback(
    (pageIds: string[], on: boolean) => setState({ ids: on ? new Set(pageIds) : new Set(), allMatching: false }),
    [setState],
  );
  const clear = useCallback(() => setState(empty()), [setState]);
  const selectAllMatching = useCallback(() => setState((prev) => ({ ...prev, allMatching: true })), [setState]);
  return { ids: state.ids, allMatching: state.allMatching, toggle, setPage, selectAllMatching, clear };
}
export type Selection = ReturnType<typeof useSelection>;

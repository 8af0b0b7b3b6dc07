import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useHubClient } from '../../components/session/session-context.tsx';
import { hubKeys, watchListQuery } from '../../hub/queries.ts';
import type { WatchItem, WatchList } from '../../hub/schemas/index.ts';

type Change = { add: WatchItem[]; delete: WatchItem[] };

const same = (a: WatchItem, b: WatchItem) => a.id === b.id && a.type === b.type;

/** The watch list and its PATCH, applied to the cache at once and rolled back on error. */
export function useWatchList() {
  const client = useHubClient();
  const queryClient = useQueryClient();
  const key = hubKeys.settings.watch();
  const list = useQuery(watchListQuery(client));
  const change = useMutation({
    mutationFn: (c: Change) => client.patchWatch(c),
    onMutate: async (c) => {
      await queryClient.cancelQueries({ queryKey: key });
      const before = queryClient.getQueryData<WatchList>(key);
      if (before) {
        const kept = before.watched.filter((w) => !c.delete.some((d) => same(d, w)));
        const added = c.add.filter((a) => !kept.some((w) => same(a, w)));
        queryClient.setQueryData<WatchList>(key, { watched: [...kept, ...added] });
      }
      return { before };
    },
    onError: (_e, _c, ctx) => ctx?.before && queryClient.setQueryData(key, ctx.before),
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
  return { list, change };
}

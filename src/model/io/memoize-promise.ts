// One promise per key, shared by every caller that asks for the key while it runs or after it
// resolved; a promise that fails is dropped, so the next caller tries again (transformers.js
// utils/memoize_promise.js, with the memo owned by the caller instead of one global map).

/** the memo's promise for `key`, made by `make` when there is none; dropped again if it rejects */
export function memoizePromise<K, V>(memo: Map<K, Promise<V>>, key: K, make: () => Promise<V>): Promise<V> {
  const known = memo.get(key);
  if (known) return known;
  const made = make();
  memo.set(key, made);
  // only this promise is dropped: a newer one made for the key after a release stays
  made.catch(() => {
    if (memo.get(key) === made) memo.delete(key);
  });
  return made;
}

import { useEffect, useRef } from 'react';

interface Handlers {
  move(delta: 1 | -1): void;
  toggle(): void;
  read(): void;
  unread(): void;
  focusFilters(): void;
  open(): void;
  clear(): void;
}

function typing(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return (
    target.isContentEditable ||
    (['INPUT', 'SELECT', 'TEXTAREA'].includes(target.tagName) && (target as HTMLInputElement).type !== 'checkbox')
  );
}

/** Inbox shortcuts (j/k/x/r/u, o to open, / for the filters, Escape to clear the selection), off while typing or when a dialog is open. */
export function useInboxKeys(handlers: Handlers) {
  const ref = useRef(handlers);
  useEffect(() => {
    ref.current = handlers;
  });
  useEffect(() => {
    function onKey(e: KeyboardEvent) {
      if (e.altKey || e.ctrlKey || e.metaKey || typing(e.target) || document.querySelector('dialog[open]')) return;
      const h = ref.current;
      const map: Record<string, () => void> = {
        j: () => h.move(1),
        k: () => h.move(-1),
        x: h.toggle,
        r: h.read,
        u: h.unread,
        o: h.open,
        '/': h.focusFilters,
        Escape: h.clear,
      };
      const fn = map[e.key];
      if (!fn) return;
      e.preventDefault();
      fn();
    }
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
}

import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';

/** "g" then a letter, as in most daily-use web tools. */
export const GO_SHORTCUTS: Record<string, string> = {
  i: '/inbox',
  s: '/settings',
  w: '/webhooks',
  j: '/jobs',
  t: '/storage',
  p: '/preview',
};

function typing(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || ['INPUT', 'SELECT', 'TEXTAREA'].includes(target.tagName))
  );
}

export function useGoShortcuts() {
  const navigate = useNavigate();
  useEffect(() => {
    let armedAt = 0;
    function onKey(e: KeyboardEvent) {
      if (e.altKey || e.ctrlKey || e.metaKey || typing(e.target) || document.querySelector('dialog[open]')) return;
      if (e.key === 'g') {
        armedAt = Date.now();
        return;
      }
      const to = GO_SHORTCUTS[e.key];
      if (to && Date.now() - armedAt < 1500) {
        e.preventDefault();
        e.stopImmediatePropagation();
        armedAt = 0;
        navigate(to);
      }
    }
    // Capture phase: "g i" must not also reach a page's own single-key shortcuts.
    document.addEventListener('keydown', onKey, true);
    return () => document.removeEventListener('keydown', onKey, true);
  }, [navigate]);
}

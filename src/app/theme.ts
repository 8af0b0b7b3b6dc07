const KEY = 'hub-console.theme';
export type Theme = 'light' | 'dark';

export function initialTheme(): Theme {
  const saved = localStorage.getItem(KEY);
  if (saved === 'light' || saved === 'dark') return saved;
  return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/** `persist` only for an explicit choice: until then the system preference keeps deciding. */
export function applyTheme(t: Theme, persist = false): void {
  document.documentElement.classList.toggle('dark', t === 'dark');
  document.documentElement.style.colorScheme = t;
  if (persist) localStorage.setItem(KEY, t);
}

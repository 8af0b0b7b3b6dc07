// Where the signed-in session lives: sessionStorage by default, localStorage with "remember me".
// The token never goes into a URL, a log line or an error message.
import { proxiedHubUrl } from './proxied-hub.ts';

export interface StoredSession {
  baseUrl: string;
  token: string;
  remember: boolean;
}

const KEY = 'hub-console.session';

export function loadSession(): StoredSession | null {
  for (const store of [sessionStorage, localStorage]) {
    const raw = store.getItem(KEY);
    if (!raw) continue;
    try {
      const s = JSON.parse(raw) as Partial<StoredSession>;
      // Proxied, the page may call its own origin only: a session kept for another hub does not apply.
      if (proxiedHubUrl() && s.baseUrl !== window.location.origin) continue;
      if (typeof s.baseUrl === 'string' && typeof s.token === 'string') {
        return { baseUrl: s.baseUrl, token: s.token, remember: store === localStorage };
      }
    } catch {
      store.removeItem(KEY);
    }
  }
  return null;
}

export function saveSession(s: StoredSession): void {
  clearSession();
  (s.remember ? localStorage : sessionStorage).setItem(KEY, JSON.stringify({ baseUrl: s.baseUrl, token: s.token }));
}

export function clearSession(): void {
  sessionStorage.removeItem(KEY);
  localStorage.removeItem(KEY);
}

export function defaultHubUrl(): string {
  return window.location.origin;
}

import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { createHubClient, type HubClient } from '../../hub/client.ts';
import { clearSession, loadSession, saveSession, type StoredSession } from './session-storage.ts';

interface SessionValue {
  session: StoredSession | null;
  client: HubClient | null;
  /** True after the hub answered 401: sign-in says why the user is back there. */
  expired: boolean;
  signIn(session: StoredSession): void;
  signOut(): void;
}

export const SESSION_EXPIRED_EVENT = 'hub-console:session-expired';

const SessionContext = createContext<SessionValue | null>(null);

export function SessionProvider({ children, onSignOut }: { children: ReactNode; onSignOut?: () => void }) {
  const [session, setSession] = useState<StoredSession | null>(() => loadSession());
  const [expired, setExpired] = useState(false);
  const client = useMemo(() => (session ? createHubClient({ baseUrl: session.baseUrl, token: session.token }) : null), [session]);
  const signIn = useCallback((s: StoredSession) => {
    saveSession(s);
    setExpired(false);
    setSession(s);
  }, []);
  const signOut = useCallback(() => {
    clearSession();
    setExpired(false);
    setSession(null);
    onSignOut?.();
  }, [onSignOut]);
  useEffect(() => {
    // Dispatched by the app when the hub answers 401: the token is gone or revoked.
    const expire = () => {
      clearSession();
      setExpired(true);
      setSession(null);
      onSignOut?.();
    };
    window.addEventListener(SESSION_EXPIRED_EVENT, expire);
    return () => window.removeEventListener(SESSION_EXPIRED_EVENT, expire);
  }, [onSignOut]);
  const value = useMemo(() => ({ session, client, expired, signIn, signOut }), [session, client, expired, signIn, signOut]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionValue {
  const v = useContext(SessionContext);
  if (!v) throw new Error('useSession outside SessionProvider');
  return v;
}

/** The signed-in hub client. Pages are only rendered behind the sign-in guard, so it exists. */
export function useHubClient(): HubClient {
  const { client } = useSession();
  if (!client) throw new Error('useHubClient: not signed in');
  return client;
}

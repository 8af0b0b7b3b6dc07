import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { createHubClient, type HubClient } from '../../hub/client.ts';
import { clearSession, loadSession, saveSession, type StoredSession } from './session-storage.ts';
import { watchUnauthorized } from './watch-unauthorized.ts';

interface SessionValue {
  session: StoredSession | null;
  client: HubClient | null;
  /** True after the hub answered 401: sign-in says why the user is back there. */
  expired: boolean;
  signIn(session: StoredSession): void;
  signOut(): void;
}

const SessionContext = createContext<SessionValue | null>(null);

/**
 * Holds the signed-in session, inside the QueryClientProvider whose client it watches: a 401 from
 * any query or mutation ends the session (the token is gone or revoked), and ending it for any
 * reason clears the cache, so the next user sees nothing of the last one's data.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [session, setSession] = useState<StoredSession | null>(() => loadSession());
  const [expired, setExpired] = useState(false);
  const client = useMemo(
    () => (session ? createHubClient({ baseUrl: session.baseUrl, token: session.token }) : null),
    [session],
  );
  const signIn = useCallback((s: StoredSession) => {
    saveSession(s);
    setExpired(false);
    setSession(s);
  }, []);
  const end = useCallback(
    (why: 'signed-out' | 'expired') => {
      clearSession();
      setExpired(why === 'expired');
      setSession(null);
      queryClient.clear();
    },
    [queryClient],
  );
  const signOut = useCallback(() => end('signed-out'), [end]);
  // RequireSession then sends the user to sign-in with ?next= the page they were on.
  useEffect(() => watchUnauthorized(queryClient, () => end('expired')), [queryClient, end]);
  const value = useMemo(
    () => ({ session, client, expired, signIn, signOut }),
    [session, client, expired, signIn, signOut],
  );
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

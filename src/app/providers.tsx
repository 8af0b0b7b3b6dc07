import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { isUnauthorized } from '../components/ui/describe-error.ts';
import { SessionProvider } from '../components/session/session-context.tsx';
import { shouldRetryHubError as shouldRetry } from '../hub/queries.ts';

/** A 401 anywhere ends the session: the app (not the client) sends the user to sign-in. */
export function Providers({ children, onUnauthorized }: { children: ReactNode; onUnauthorized: () => void }) {
  const [queryClient] = useState(
    () =>
      new QueryClient({
        queryCache: new QueryCache({ onError: (e) => isUnauthorized(e) && onUnauthorized() }),
        mutationCache: new MutationCache({ onError: (e) => isUnauthorized(e) && onUnauthorized() }),
        defaultOptions: {
          queries: { retry: shouldRetry, staleTime: 15_000, refetchOnWindowFocus: false },
          mutations: { retry: false },
        },
      }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <SessionProvider onSignOut={() => queryClient.clear()}>{children}</SessionProvider>
    </QueryClientProvider>
  );
}

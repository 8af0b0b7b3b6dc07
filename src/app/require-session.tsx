import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { useSession } from '../components/session/session-context.tsx';

export function RequireSession({ children }: { children: ReactNode }) {
  const { session, expired } = useSession();
  const location = useLocation();
  if (!session) {
    const next = location.pathname + location.search;
    return <Navigate to={`/sign-in?next=${encodeURIComponent(next)}${expired ? '&expired=1' : ''}`} replace />;
  }
  return <>{children}</>;
}

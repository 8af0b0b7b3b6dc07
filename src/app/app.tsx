import { RouterProvider } from 'react-router-dom';
import { SESSION_EXPIRED_EVENT } from '../components/session/session-context.tsx';
import { Providers } from './providers.tsx';
import { router } from './router.tsx';
import { applyTheme, initialTheme } from './theme.ts';

// Before the first render, so sign-in (outside the layout) is themed too.
applyTheme(initialTheme());

// RequireSession then sends the user to sign-in with ?next= the page they were on.
function onUnauthorized() {
  window.dispatchEvent(new Event(SESSION_EXPIRED_EVENT));
}

export function App() {
  return (
    <Providers onUnauthorized={onUnauthorized}>
      <RouterProvider router={router} />
    </Providers>
  );
}

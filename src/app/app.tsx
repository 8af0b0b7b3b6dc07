import { RouterProvider } from 'react-router-dom';
import { Providers } from './providers.tsx';
import { router } from './router.tsx';
import { applyTheme, initialTheme } from './theme.ts';

// Before the first render, so sign-in (outside the layout) is themed too.
applyTheme(initialTheme());

export function App() {
  return (
    <Providers>
      <RouterProvider router={router} />
    </Providers>
  );
}

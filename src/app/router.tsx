import { createBrowserRouter, Navigate } from 'react-router-dom';
import { Layout } from './layout.tsx';
import { RequireSession } from './require-session.tsx';
import { RouteError } from './route-error.tsx';

// Every page is its own chunk: the preview page (model + onnxruntime-web) never loads elsewhere.
export const router = createBrowserRouter([
  { path: '/sign-in', lazy: () => import('../features/auth/route.tsx'), errorElement: <RouteError /> },
  {
    element: (
      <RequireSession>
        <Layout />
      </RequireSession>
    ),
    errorElement: <RouteError />,
    children: [
      { index: true, element: <Navigate to="/inbox" replace /> },
      { path: 'inbox', lazy: () => import('../features/inbox/route.tsx') },
      { path: 'settings', lazy: () => import('../features/settings/route.tsx') },
      { path: 'webhooks/*', lazy: () => import('../features/webhooks/route.tsx') },
      { path: 'storage', lazy: () => import('../features/storage/route.tsx') },
      { path: 'orgs/:org', lazy: () => import('../features/organizations/route.tsx') },
      { path: 'orgs/:org/audit-log', lazy: () => import('../features/audit-log/route.tsx') },
      { path: 'preview', lazy: () => import('../features/preview/route.tsx') },
      { path: '*', element: <NotFound /> },
    ],
  },
]);

function NotFound() {
  return <p className="text-sm">This page does not exist.</p>;
}

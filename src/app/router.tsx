import { createBrowserRouter, Navigate } from 'react-router-dom';
import { Layout } from './layout.tsx';
import { RequireSession } from './require-session.tsx';
import { RouteError } from './route-error.tsx';
import { Skeleton } from '../components/ui/skeleton.tsx';

// Every page is its own chunk: the preview page (model + onnxruntime-web) never loads elsewhere.
export const router = createBrowserRouter([
  {
    path: '/sign-in',
    lazy: () => import('../features/auth/route.tsx'),
    errorElement: <RouteError />,
    hydrateFallbackElement: <PageLoading />,
  },
  {
    element: (
      <RequireSession>
        <Layout />
      </RequireSession>
    ),
    errorElement: <RouteError />,
    hydrateFallbackElement: <PageLoading />,
    children: [
      { index: true, element: <Navigate to="/inbox" replace /> },
      { path: 'inbox', lazy: () => import('../features/inbox/route.tsx') },
      { path: 'settings', lazy: () => import('../features/settings/route.tsx') },
      { path: 'webhooks/*', lazy: () => import('../features/webhooks/route.tsx') },
      { path: 'storage', lazy: () => import('../features/storage/route.tsx') },
      { path: 'jobs/*', lazy: () => import('../features/jobs/route.tsx') },
      { path: 'orgs/:org', lazy: () => import('../features/organizations/route.tsx') },
      { path: 'orgs/:org/resource-groups/:groupId', lazy: () => import('../features/organizations/route.tsx') },
      { path: 'orgs/:org/audit-log', lazy: () => import('../features/audit-log/route.tsx') },
      { path: 'orgs/:org/jobs', lazy: () => import('../features/jobs/route.tsx') },
      { path: 'preview', lazy: () => import('../features/preview/route.tsx') },
      { path: '*', element: <NotFound /> },
    ],
  },
]);

// Shown while a page's chunk loads on the first visit.
function PageLoading() {
  return (
    <div className="p-6">
      <Skeleton rows={6} label="Loading page" />
    </div>
  );
}

function NotFound() {
  return <p className="text-sm">This page does not exist.</p>;
}

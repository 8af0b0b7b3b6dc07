import { useRouteError } from 'react-router-dom';
import { ErrorPanel } from '../components/ui/error-panel.tsx';

export function RouteError() {
  const error = useRouteError();
  return (
    <main className="p-6">
      <ErrorPanel error={error} title="This page failed to load" onRetry={() => window.location.reload()} />
    </main>
  );
}

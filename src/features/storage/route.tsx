import { PageHeader } from '../../components/ui/page-header.tsx';

export function Component() {
  return <PageHeader title="storage" description="Coming soon." />;
}

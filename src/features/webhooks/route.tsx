import { PageHeader } from '../../components/ui/page-header.tsx';

export function Component() {
  return <PageHeader title="webhooks" description="Coming soon." />;
}

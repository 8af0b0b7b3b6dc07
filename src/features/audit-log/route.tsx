import { PageHeader } from '../../components/ui/page-header.tsx';

export function Component() {
  return <PageHeader title="audit-log" description="Coming soon." />;
}

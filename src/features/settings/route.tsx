import { PageHeader } from '../../components/ui/page-header.tsx';
import { McpToolsSection } from './mcp-tools-section.tsx';
import { NotificationSettingsSection } from './notification-settings-section.tsx';
import { PaperClaimSection } from './paper-claim-section.tsx';
import { WatchListSection } from './watch-list-section.tsx';

const sections = [
  ['notifications-heading', 'Notifications'],
  ['watch-heading', 'Watch list'],
  ['mcp-heading', 'MCP tools'],
  ['claim-heading', 'Paper authorship'],
] as const;

export function Component() {
  return (
    <>
      <PageHeader title="Settings" description="Notifications, watch list, MCP tools and paper authorship." />
      <nav aria-label="Settings sections" className="mb-6 flex flex-wrap gap-2 text-sm">
        {sections.map(([id, label]) => (
          <a
            key={id}
            href={`#${id}`}
            className="rounded-md border border-border-strong px-2.5 py-1 hover:bg-subtle focus-visible:outline-2 focus-visible:outline-amber-600"
          >
            {label}
          </a>
        ))}
      </nav>
      <NotificationSettingsSection />
      <WatchListSection />
      <McpToolsSection />
      <PaperClaimSection />
    </>
  );
}

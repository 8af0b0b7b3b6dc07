import { useQuery } from '@tanstack/react-query';
import { useHubClient } from '../../components/session/session-context.tsx';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { ErrorPanel } from '../../components/ui/error-panel.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { mcpSettingsQuery } from '../../hub/queries.ts';

export function McpToolsSection() {
  const client = useHubClient();
  const mcp = useQuery(mcpSettingsQuery(client));
  return (
    <section aria-labelledby="mcp-heading" className="mb-10">
      <h2 id="mcp-heading" className="mb-1 text-lg font-semibold">
        MCP tools
      </h2>
      <p className="mb-3 text-sm text-muted">Tools your MCP clients get from the hub (read-only here).</p>
      {mcp.isPending ? (
        <Skeleton rows={2} label="Loading MCP tools" />
      ) : mcp.isError ? (
        <ErrorPanel error={mcp.error} title="Could not load MCP tools" onRetry={() => void mcp.refetch()} />
      ) : (
        <div className="grid gap-4 md:grid-cols-2">
          <div>
            <h3 className="mb-2 text-sm font-semibold">Built-in tools ({mcp.data.builtInTools.length})</h3>
            {mcp.data.builtInTools.length === 0 ? (
              <EmptyState title="No built-in tools" />
            ) : (
              <ul className="flex flex-wrap gap-1.5" aria-label="Built-in tools" data-testid="builtin-tools">
                {mcp.data.builtInTools.map((t) => (
                  <li key={t} className="rounded bg-subtle px-2 py-0.5 font-mono text-xs">
                    {t}
                  </li>
                ))}
              </ul>
            )}
          </div>
          <div>
            <h3 className="mb-2 text-sm font-semibold">Space tools ({mcp.data.spaceTools.length})</h3>
            {mcp.data.spaceTools.length === 0 ? (
              <EmptyState title="No Space tools">Add Spaces as tools on the hub to see them here.</EmptyState>
            ) : (
              <ul
                className="divide-y divide-border rounded-lg border border-border"
                aria-label="Space tools"
                data-testid="space-tools"
              >
                {mcp.data.spaceTools.map((t) => (
                  <li key={t._id} className="flex items-center gap-2 px-3 py-2 text-sm">
                    <span aria-hidden="true">{t.emoji}</span>
                    <span className="font-medium">{t.name}</span>
                    <span className="ml-auto font-mono text-xs text-muted">{t.subdomain}</span>
                  </li>
                ))}
              </ul>
            )}
          </div>
        </div>
      )}
    </section>
  );
}

import type { ReactNode } from 'react';
import type { HubEndpointNotExposedError } from '../../hub/errors.ts';

/**
 * One line saying what this hub does not expose (a read only the mock hub has), and what the page
 * offers instead; the rest of the page goes on working. Pages show it for `isEndpointNotExposed`.
 */
export function NotExposedNote({ error, children }: { error: HubEndpointNotExposedError; children?: ReactNode }) {
  return (
    <p
      role="note"
      data-testid="not-exposed"
      className="mb-3 rounded-md border border-border-strong bg-surface-muted px-3 py-2 text-sm text-foreground"
    >
      This hub does not expose {error.what}
      {children ? <>: {children}</> : '.'}
    </p>
  );
}

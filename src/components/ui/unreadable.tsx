import type { HubIssue } from '../../hub/errors.ts';
import type { UnreadableItem } from '../../hub/tolerant-response.ts';
import { DescriptionRow } from './description-row.tsx';
import { StatusPill } from './status-pill.tsx';

/** A value the hub sent that this console does not know (a new stage, flavor, type): shown as it is, in a neutral pill. */
export function UnknownValuePill({ value, what }: { value: string; what: string }) {
  return (
    <StatusPill
      icon="?"
      label={value}
      tone="neutral"
      className="ring-1 ring-border-strong"
      title={`A ${what} this console does not know yet; shown as the hub sent it`}
      data-testid="unknown-value"
    />
  );
}

const pretty = (v: unknown) => JSON.stringify(v, null, 2) ?? String(v);
const shown = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

/** The first issue as one line: which field and why. */
export const issueLine = (issues: readonly HubIssue[]) =>
  issues.length === 0
    ? 'it does not match what the console reads'
    : `${issues[0]!.path || '(the whole record)'}: ${issues[0]!.message}${issues.length > 1 ? ` (+${issues.length - 1} more)` : ''}`;

/** What names the record for people: its id or name, when that field could be read. */
const nameOf = (fields: Record<string, unknown>) =>
  ['id', '_id', 'name', 'title'].map((k) => fields[k]).find((v) => typeof v === 'string' && v) as string | undefined;

function RawJson({ raw }: { raw: unknown }) {
  return (
    <details className="mt-1 text-xs">
      <summary className="cursor-pointer text-soft underline-offset-2 hover:underline">Raw JSON</summary>
      {/* Focusable: a scrollable region must be reachable by keyboard. */}
      <pre
        className="mt-1 max-h-80 overflow-auto rounded bg-subtle p-2"
        tabIndex={0}
        aria-label="Raw JSON as the hub sent it"
        data-testid="unreadable-raw"
      >
        {pretty(raw)}
      </pre>
    </details>
  );
}

/**
 * Records of a list that even the tolerant reader could not read, each as a row of its own: which
 * field and why, the raw JSON one click away. The rest of the page lists the readable records.
 */
export function UnreadableItems({ items, what }: { items: readonly UnreadableItem[]; what: string }) {
  if (items.length === 0) return null;
  return (
    <section
      aria-label={`Unreadable ${what}`}
      className="rounded-lg border border-warning-border bg-warning-soft p-3 text-sm text-warning"
    >
      <p className="font-medium">
        {items.length === 1 ? `1 ${what} could not be read` : `${items.length} ${what}s could not be read`}; the others
        are listed as usual.
      </p>
      <ul className="mt-2 space-y-2">
        {items.map((item, i) => (
          <li key={i} data-testid="unreadable-item">
            <UnknownValuePill value="unreadable" what={what} />{' '}
            {nameOf(item.fields) && <code className="font-mono text-xs">{nameOf(item.fields)}</code>}{' '}
            <span data-testid="unreadable-why">{issueLine(item.issues)}</span>
            <RawJson raw={item.raw} />
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A record (a detail page's answer) the console could not read: why, every field that could be read, and the raw JSON. */
export function UnreadableRecord({
  issues,
  raw,
  fields,
}: {
  issues: readonly HubIssue[];
  raw: unknown;
  fields: Record<string, unknown>;
}) {
  return (
    <div className="mt-3 text-foreground" data-testid="unreadable-record">
      <ul className="list-disc pl-5 text-sm" data-testid="unreadable-why">
        {issues.map((i, n) => (
          <li key={n}>
            <code>{i.path || '(the whole record)'}</code>: {i.message}
          </li>
        ))}
      </ul>
      {Object.keys(fields).length > 0 && (
        <dl className="mt-2 text-sm" aria-label="Fields that could be read">
          {Object.entries(fields).map(([k, v]) => (
            <DescriptionRow key={k} term={k}>
              <span className="break-all font-mono text-xs">{shown(v)}</span>
            </DescriptionRow>
          ))}
        </dl>
      )}
      <RawJson raw={raw} />
    </div>
  );
}

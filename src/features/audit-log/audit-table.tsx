import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef, useState, type KeyboardEvent } from 'react';
import type { AuditLogEvent } from '../../hub/schemas/index.ts';
import type { SortDir, SortKey } from './audit-view.ts';

const ROW_H = 36;
const HEADER_H = 36;
const COLS = 'grid grid-cols-[11rem_15rem_9rem_8rem_minmax(12rem,1fr)] gap-3 px-3';
const COLUMNS: { key: SortKey | null; label: string }[] = [
  { key: 'createdAt', label: 'Time' },
  { key: 'type', label: 'Type' },
  { key: 'author', label: 'Author' },
  { key: 'ip', label: 'IP' },
  { key: null, label: 'Message' },
];

const time = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'medium' });
// Formatting a date is the costliest part of a row; visible rows repeat while scrolling.
const timeCache = new Map<string, string>();
function formatTime(iso: string): string {
  let s = timeCache.get(iso);
  if (s === undefined) {
    s = time.format(new Date(iso));
    if (timeCache.size > 5000) timeCache.clear();
    timeCache.set(iso, s);
  }
  return s;
}

/**
 * Only the visible rows (plus a few) are in the DOM. The grid itself holds focus and points at
 * the active row with aria-activedescendant, so the keyboard works whatever is rendered.
 */
export function AuditTable(props: {
  events: readonly AuditLogEvent[];
  order: Uint32Array;
  sort: SortKey;
  dir: SortDir;
  onSort(key: SortKey, dir: SortDir): void;
  onOpen(event: AuditLogEvent): void;
}) {
  const { events, order } = props;
  const scrollRef = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState(0);
  const activeIndex = Math.min(active, Math.max(0, order.length - 1));
  const virtualizer = useVirtualizer({
    count: order.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_H,
    overscan: 10,
    paddingStart: HEADER_H,
  });

  const move = (to: number) => {
    const i = Math.max(0, Math.min(order.length - 1, to));
    setActive(i);
    virtualizer.scrollToIndex(i, { align: 'auto' });
  };

  function onKeyDown(e: KeyboardEvent<HTMLDivElement>) {
    if (e.target !== e.currentTarget || order.length === 0) return;
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 400) / ROW_H) - 1);
    const keys: Record<string, () => void> = {
      ArrowDown: () => move(activeIndex + 1),
      ArrowUp: () => move(activeIndex - 1),
      PageDown: () => move(activeIndex + page),
      PageUp: () => move(activeIndex - page),
      Home: () => move(0),
      End: () => move(order.length - 1),
      Enter: () => props.onOpen(events[order[activeIndex]!]!),
      ' ': () => props.onOpen(events[order[activeIndex]!]!),
    };
    const action = keys[e.key];
    if (action) {
      e.preventDefault();
      action();
    }
  }

  const items = virtualizer.getVirtualItems();
  // Point at the active row only while it is rendered (an id that is not in the DOM is invalid).
  const activeRendered = items.some((i) => i.index === activeIndex);
  return (
    <div
      ref={scrollRef}
      role="grid"
      aria-label="Audit log events"
      aria-readonly="true"
      aria-rowcount={order.length + 1}
      aria-colcount={COLUMNS.length}
      aria-activedescendant={activeRendered ? `audit-row-${activeIndex}` : undefined}
      tabIndex={0}
      onKeyDown={onKeyDown}
      className="relative h-[60vh] min-h-80 overflow-auto rounded-lg border border-border text-sm focus-visible:outline-2 focus-visible:outline-amber-600"
      data-testid="audit-grid"
    >
      <div
        role="row"
        aria-rowindex={1}
        className={`${COLS} sticky top-0 z-10 items-center border-b border-border bg-surface-muted text-xs uppercase tracking-wide text-muted`}
        style={{ height: HEADER_H }}
      >
        {COLUMNS.map((c) => {
          const on = c.key === props.sort;
          return (
            <div
              key={c.label}
              role="columnheader"
              aria-sort={c.key ? (on ? (props.dir === 'asc' ? 'ascending' : 'descending') : 'none') : undefined}
            >
              {c.key ? (
                <button
                  type="button"
                  className="inline-flex items-center gap-1 uppercase hover:text-foreground"
                  onClick={() => props.onSort(c.key!, on && props.dir === 'desc' ? 'asc' : 'desc')}
                >
                  {c.label}
                  <span aria-hidden="true">{on ? (props.dir === 'asc' ? '▲' : '▼') : '↕'}</span>
                </button>
              ) : (
                c.label
              )}
            </div>
          );
        })}
      </div>
      <div
        aria-hidden="true"
        style={{ position: 'absolute', top: 0, left: 0, width: 1, height: virtualizer.getTotalSize() }}
      />
      {items.map((item) => {
        const e = events[order[item.index]!]!;
        const isActive = item.index === activeIndex;
        return (
          <div
            key={item.key}
            id={`audit-row-${item.index}`}
            role="row"
            aria-rowindex={item.index + 2}
            aria-selected={isActive}
            data-testid="audit-row"
            onClick={() => {
              setActive(item.index);
              props.onOpen(e);
            }}
            className={`${COLS} absolute left-0 right-0 cursor-pointer items-center border-b border-border ${isActive ? 'bg-warning-soft' : 'hover:bg-surface-muted'}`}
            style={{ top: item.start, height: ROW_H }}
          >
            <div role="gridcell" className="truncate tabular-nums">
              {formatTime(e.createdAt)}
            </div>
            <div role="gridcell" className="truncate font-mono text-xs">
              {e.type}
            </div>
            <div role="gridcell" className="truncate">
              {e.author.user}
            </div>
            <div role="gridcell" className="truncate font-mono text-xs">
              {e.ip ?? '—'}
            </div>
            <div role="gridcell" className="truncate">
              {e.message}
            </div>
          </div>
        );
      })}
    </div>
  );
}

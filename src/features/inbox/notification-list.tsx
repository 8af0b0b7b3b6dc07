import { useEffect, useRef } from 'react';
import type { Notification } from '../../hub/schemas/index.ts';
import { hubWebUrl } from '../../hub/web-urls.ts';
import { NotificationRow } from './notification-row.tsx';
import type { NotificationView } from './notification-view.ts';

interface Props {
  rows: { notification: Notification; view: NotificationView }[];
  hubUrl: string;
  selected: ReadonlySet<string>;
  allSelected: boolean;
  active: number;
  focusActive: number;
  onActive(i: number): void;
  onToggle(id: string): void;
  onOpen(id: string): void;
}

export function NotificationList({
  rows,
  hubUrl,
  selected,
  allSelected,
  active,
  focusActive,
  onActive,
  onToggle,
  onOpen,
}: Props) {
  const refs = useRef<(HTMLLIElement | null)[]>([]);
  // Keyboard moves bump focusActive; clicks only set active and keep focus where it is.
  useEffect(() => {
    if (focusActive > 0) refs.current[active]?.focus();
  }, [focusActive, active]);
  return (
    <ul aria-label="Notifications" className="overflow-hidden rounded-lg border border-border">
      {rows.map(({ notification, view }, i) => (
        <NotificationRow
          key={view.id}
          ref={(el) => {
            refs.current[i] = el;
          }}
          notification={notification}
          view={view}
          href={hubWebUrl(hubUrl, view.path)}
          selected={allSelected || selected.has(view.id)}
          active={i === active}
          onToggle={() => onToggle(view.id)}
          onFocus={() => onActive(i)}
          onOpen={() => onOpen(view.id)}
        />
      ))}
    </ul>
  );
}

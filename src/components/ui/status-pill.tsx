import type { HTMLAttributes } from 'react';
import { cn } from './cn.ts';

/**
 * A state shown as a colored pill with an icon before the words, so it reads without color too
 * (webhook states, job stages). `className` carries the tone; other attributes pass through.
 */
export function StatusPill({
  icon,
  label,
  className,
  ...rest
}: { icon: string; label: string } & HTMLAttributes<HTMLSpanElement>) {
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1 whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium',
        className,
      )}
      {...rest}
    >
      <span aria-hidden="true">{icon}</span>
      {label}
    </span>
  );
}

import { cva, type VariantProps } from 'class-variance-authority';
import type { HTMLAttributes } from 'react';
import { cn } from './cn.ts';

/** The tones a state can have; each is a tinted background with its own text colour, in both themes. */
export const statusPillVariants = cva(
  'inline-flex items-center gap-1 whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium',
  {
    variants: {
      tone: {
        neutral: 'bg-subtle-strong text-foreground',
        info: 'bg-info-soft text-info-strong',
        accent: 'bg-accent-soft text-accent-strong',
        success: 'bg-success-soft text-success-strong',
        danger: 'bg-danger-soft text-danger-strong',
      },
    },
    defaultVariants: { tone: 'neutral' },
  },
);

export type StatusTone = NonNullable<VariantProps<typeof statusPillVariants>['tone']>;

/**
 * A state shown as a colored pill with an icon before the words, so it reads without color too
 * (webhook states, job stages). Other attributes pass through.
 */
export function StatusPill({
  icon,
  label,
  tone,
  className,
  ...rest
}: { icon: string; label: string } & VariantProps<typeof statusPillVariants> & HTMLAttributes<HTMLSpanElement>) {
  return (
    <span className={cn(statusPillVariants({ tone }), className)} {...rest}>
      <span aria-hidden="true">{icon}</span>
      {label}
    </span>
  );
}

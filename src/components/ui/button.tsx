import { cva, type VariantProps } from 'class-variance-authority';
import type { ButtonHTMLAttributes } from 'react';
import { cn } from './cn.ts';

/** A button's look by what it does (variant) and where it sits (size); the colours are the theme's tokens. */
export const buttonVariants = cva(
  'inline-flex items-center gap-1.5 rounded-md font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-focus disabled:cursor-not-allowed disabled:opacity-50',
  {
    variants: {
      variant: {
        primary: 'bg-accent-solid text-on-accent-solid hover:bg-accent-solid-hover',
        secondary: 'border border-border-strong bg-surface text-foreground hover:bg-subtle',
        danger: 'bg-danger-solid text-white hover:bg-danger-solid-hover focus-visible:outline-danger-solid',
        ghost: 'text-soft hover:bg-subtle',
      },
      size: {
        md: 'px-3 py-1.5 text-sm',
        sm: 'px-2 py-1 text-xs',
      },
    },
    defaultVariants: { variant: 'secondary', size: 'md' },
  },
);

export function Button({
  variant,
  size,
  className,
  type = 'button',
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & VariantProps<typeof buttonVariants>) {
  return <button type={type} className={cn(buttonVariants({ variant, size }), className)} {...props} />;
}

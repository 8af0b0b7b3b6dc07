import { cva, type VariantProps } from 'class-variance-authority';
import type { AnchorHTMLAttributes } from 'react';
import { Link, type LinkProps } from 'react-router-dom';
import { cn } from './cn.ts';

/**
 * The one look of a link in running text (`underline: 'always'`) or in a table cell or list, where it
 * underlines on hover. `textLinkVariants` gives the same classes to anything that renders its own anchor.
 */
export const textLinkVariants = cva('text-accent', {
  variants: {
    underline: {
      always: 'underline',
      hover: 'underline-offset-2 hover:underline',
    },
  },
  defaultVariants: { underline: 'always' },
});

type TextLinkVariants = VariantProps<typeof textLinkVariants>;

/** A link to a page of the console. */
export function TextLink({ underline, className, ...props }: LinkProps & TextLinkVariants) {
  return <Link className={cn(textLinkVariants({ underline }), className)} {...props} />;
}

/** A link that leaves the console (the hub's pages, a job's URLs): opens in a new tab, with no opener. */
export function ExternalTextLink({
  underline,
  className,
  ...props
}: AnchorHTMLAttributes<HTMLAnchorElement> & TextLinkVariants) {
  return (
    <a
      target="_blank"
      rel="noopener noreferrer"
      className={cn(textLinkVariants({ underline }), className)}
      {...props}
    />
  );
}

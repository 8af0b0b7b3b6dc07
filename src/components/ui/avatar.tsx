import { useState } from 'react';
import { cn } from './cn.ts';

const sizes = { sm: 'h-6 w-6 text-[10px]', md: 'h-8 w-8 text-xs' } as const;

/** A round avatar that falls back to initials when the image cannot load (offline CDN, COEP). */
export function Avatar({
  src,
  name,
  size = 'sm',
  className,
}: {
  src?: string;
  name: string;
  size?: keyof typeof sizes;
  className?: string;
}) {
  const [broken, setBroken] = useState(false);
  return (
    <span
      title={name}
      aria-hidden="true"
      className={cn(
        'inline-flex shrink-0 items-center justify-center overflow-hidden rounded-full bg-subtle-strong font-semibold uppercase text-foreground',
        sizes[size],
        className,
      )}
    >
      {broken || !src ? (
        name.slice(0, 2)
      ) : (
        <img src={src} alt="" className="h-full w-full object-cover" onError={() => setBroken(true)} />
      )}
    </span>
  );
}

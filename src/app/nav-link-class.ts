export const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  `block rounded-md px-3 py-1.5 text-sm focus-visible:outline-2 focus-visible:outline-focus ${isActive ? 'bg-accent-soft font-medium text-accent-strong' : 'text-soft hover:bg-subtle'}`;

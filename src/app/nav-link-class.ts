export const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  `block rounded-md px-3 py-1.5 text-sm focus-visible:outline-2 focus-visible:outline-amber-600 ${isActive ? 'bg-amber-100 font-medium text-amber-950 dark:bg-amber-900/40 dark:text-amber-100' : 'text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800'}`;

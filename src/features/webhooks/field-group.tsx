import { useId, type ReactNode } from 'react';

/** A fieldset for controls that belong together (rows of a map, a list), with its error. */
export function FieldGroup({
  legend,
  error,
  hint,
  children,
}: {
  legend: string;
  error?: string | undefined;
  hint?: string;
  children: (ids: { errorId: string | undefined; invalid: boolean }) => ReactNode;
}) {
  const id = useId();
  const errorId = error ? `${id}-error` : undefined;
  return (
    <fieldset
      className="space-y-2 rounded-md border border-slate-200 p-3 dark:border-slate-700"
      aria-describedby={errorId}
    >
      <legend className="px-1 text-sm font-medium">{legend}</legend>
      {hint && <p className="text-xs text-slate-600 dark:text-slate-400">{hint}</p>}
      {children({ errorId, invalid: Boolean(error) })}
      {error && (
        <p id={errorId} className="text-xs text-red-700 dark:text-red-400" role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}

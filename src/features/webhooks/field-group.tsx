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
    <fieldset className="space-y-2 rounded-md border border-border p-3" aria-describedby={errorId}>
      <legend className="px-1 text-sm font-medium">{legend}</legend>
      {hint && <p className="text-xs text-muted">{hint}</p>}
      {children({ errorId, invalid: Boolean(error) })}
      {error && (
        <p id={errorId} className="text-xs text-danger" role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}

import { useEffect, useId, useRef, type ReactNode } from 'react';
import { Button } from './button.tsx';

/** A modal confirmation built on <dialog>: focus trapped, Escape cancels. */
export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  children?: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  busy?: boolean;
  onConfirm(): void;
  onCancel(): void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (props.open && !d.open) d.showModal();
    if (!props.open && d.open) d.close();
  }, [props.open]);
  return (
    <dialog
      ref={ref}
      onCancel={(e) => {
        e.preventDefault();
        props.onCancel();
      }}
      aria-labelledby={titleId}
      className="m-auto max-w-md rounded-lg bg-surface p-5 text-foreground shadow-xl backdrop:bg-scrim"
    >
      <h2 id={titleId} className="text-lg font-semibold">
        {props.title}
      </h2>
      <div className="mt-2 text-sm">{props.children}</div>
      <div className="mt-4 flex justify-end gap-2">
        <Button onClick={props.onCancel}>Cancel</Button>
        <Button variant={props.danger ? 'danger' : 'primary'} onClick={props.onConfirm} disabled={props.busy}>
          {props.confirmLabel}
        </Button>
      </div>
    </dialog>
  );
}

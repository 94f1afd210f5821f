import { useEffect, useId, useRef, useState, type ReactNode } from 'react';

/**
 * A modal <dialog>: showModal() gives the dialog role, traps focus, makes the page behind
 * inert and closes on Escape; focus returns to the control that opened it.
 */
export function Dialog({ title, onClose, children }: { title: string; onClose: () => void; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current!;
    const opener = document.activeElement as HTMLElement | null;
    dialog.showModal();
    return () => {
      dialog.close();
      opener?.focus();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <h2 id={titleId}>{title}</h2>
      {children}
    </dialog>
  );
}

/**
 * Asks before something that cannot be undone. With `typed`, the action stays disabled
 * until that exact text is typed (for purges).
 */
export function ConfirmDialog({
  title,
  message,
  confirmLabel,
  typed,
  busy,
  error,
  onConfirm,
  onClose,
}: {
  title: string;
  message: ReactNode;
  confirmLabel: string;
  typed?: string;
  busy?: boolean;
  error?: string | null;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const [text, setText] = useState('');
  const inputId = useId();
  const ready = typed === undefined || text === typed;
  return (
    <Dialog title={title} onClose={onClose}>
      <div>{message}</div>
      {typed !== undefined ? (
        <p>
          <label htmlFor={inputId}>
            Type <strong>{typed}</strong> to confirm
          </label>
          <input id={inputId} value={text} onChange={(event) => setText(event.target.value)} autoComplete="off" />
        </p>
      ) : null}
      {error ? <p role="alert">{error}</p> : null}
      <div className="actions">
        <button type="button" className="danger" disabled={!ready || busy} onClick={onConfirm}>
          {confirmLabel}
        </button>
        <button type="button" className="secondary" onClick={onClose} autoFocus>
          Cancel
        </button>
      </div>
    </Dialog>
  );
}

export const describeError = (error: unknown): string => (error instanceof Error ? error.message : String(error));

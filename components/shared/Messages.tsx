import type { ComponentChildren } from 'preact';

/** An error a person must notice: announced at once, rendered as text. */
export function ErrorMessage({ children, id }: { children: ComponentChildren; id?: string }) {
  if (children === null || children === undefined || children === false || children === '') return null;
  return (
    <p class="message message-error" role="alert" id={id}>
      {children}
    </p>
  );
}

/** Progress or success text, announced politely. Always rendered so the live region exists before it changes. */
export function StatusMessage({ children, id }: { children?: ComponentChildren; id?: string }) {
  return (
    <p class="message message-status" role="status" aria-live="polite" id={id}>
      {children}
    </p>
  );
}

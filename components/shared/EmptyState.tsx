/**
 * An empty list says what to do, with the button that does it: `onAction` runs it, or `focusId` names
 * the field of a form further down the same screen that starts it (scrolled to and focused).
 */
export function EmptyState({ text, action, onAction, focusId }: { text: string; action: string; onAction?: () => void; focusId?: string }) {
  const run = () => {
    if (onAction) onAction();
    if (focusId) {
      const field = document.getElementById(focusId);
      field?.scrollIntoView({ block: 'center' });
      field?.focus();
    }
  };
  return (
    <div class="empty-state">
      <p class="hint">{text}</p>
      <button type="button" class="secondary small" onClick={run}>
        {action}
      </button>
    </div>
  );
}

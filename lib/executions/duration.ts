/** An execution's talk time in seconds (either spelling), or null when absent; the background and the screens share it. */
export function executionDuration(execution: { conversation_duration?: number | null; conversation_time?: number | null } | null | undefined): number | null {
  if (!execution) return null;
  const value = execution.conversation_duration ?? execution.conversation_time;
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

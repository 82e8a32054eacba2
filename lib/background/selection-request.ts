/**
 * The keyboard shortcut takes the selection of the frame the user is in. The background asks every
 * frame of the tab (`page/selection`, no data); only the frame that has focus answers, with a message
 * of its own (`page/selected`), so the browser's sender fields name that frame for the confirmation.
 * A `page/selected` is taken only while the tab's shortcut awaits one, once, within a few seconds: a
 * page cannot open a confirmation this way without the user pressing the shortcut. Pure: the caller
 * passes the clock.
 */
export const SELECTION_WAIT_MS = 5_000;

export class PendingSelections {
  /** tabId → when the shortcut asked. */
  private readonly asked = new Map<number, number>();

  expect(tabId: number, now: number): void {
    this.asked.set(tabId, now);
  }

  /** True once per `expect`, within SELECTION_WAIT_MS of it. */
  take(tabId: number, now: number): boolean {
    const at = this.asked.get(tabId);
    this.asked.delete(tabId);
    return at !== undefined && now - at >= 0 && now - at < SELECTION_WAIT_MS;
  }
}

/** The background's one set (the shortcut's handler and the page service share it). */
export const pendingSelections = new PendingSelections();

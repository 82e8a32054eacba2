/**
 * The background shells' wake-up: one timer for the earliest due step while the worker lives, and
 * an alarm (30 s, the shortest Chrome allows) that brings a stopped worker back while any placement
 * is active. Shared by the plan runs and the Batches section's placements.
 */
import { browser } from '../browser';

export class DueTimer {
  private timer: ReturnType<typeof setTimeout> | null = null;
  constructor(
    private readonly alarm: string,
    private readonly wake: () => void,
    private readonly now: () => number,
  ) {}

  /** `next`: when the earliest active placement is due (ms), or null when none is active. */
  async arm(next: number | null): Promise<void> {
    this.dispose();
    if (next === null) {
      await browser.alarms.clear(this.alarm);
      return;
    }
    this.timer = setTimeout(this.wake, Math.max(0, next - this.now()));
    if (!(await browser.alarms.get(this.alarm))) browser.alarms.create(this.alarm, { periodInMinutes: 0.5, delayInMinutes: 0.5 });
  }

  /** Forgets the timer (a test's service going away; the alarm stays for the next worker). */
  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

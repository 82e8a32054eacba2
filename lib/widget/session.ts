/**
 * One widget call from the element's side: place it through the transport, read its view until it
 * is done, stop it on request, and tell the host page through events. The transport does the talking;
 * this keeps what the element shows (signals) and what the host hears (events), one rule each.
 */
import { signal } from '@preact/signals';
import { WIDGET_EVENTS, type WidgetEventDetail } from './events';
import type { WidgetCallRequest, WidgetCallView, WidgetTransport } from './wire';

export { WIDGET_EVENTS, type WidgetEventDetail };

export function eventDetail(view: WidgetCallView | null): WidgetEventDetail {
  return {
    id: view?.id ?? null,
    executionId: view?.executionId ?? null,
    status: view?.status ?? null,
    durationSeconds: view?.durationSeconds ?? null,
    cost: view?.cost ?? null,
  };
}

export interface SessionDeps {
  transport: WidgetTransport;
  emit(name: (typeof WIDGET_EVENTS)[keyof typeof WIDGET_EVENTS], detail: WidgetEventDetail): void;
  /** Waits between reads (a timer in the element; tests pass one that resolves at once). */
  wait(ms: number): Promise<void>;
  pollMs?: number;
}

export type SessionPhase = 'idle' | 'placing' | 'following' | 'done';

export class WidgetSession {
  readonly view = signal<WidgetCallView | null>(null);
  readonly phase = signal<SessionPhase>('idle');
  /** A refusal or a failure to reach the service, in words (the call may still be going on). */
  readonly error = signal<string | null>(null);
  readonly stopping = signal(false);
  private disposed = false;
  private lastStatus: string | null | undefined = undefined;

  constructor(private readonly deps: SessionDeps) {}

  async call(request: WidgetCallRequest): Promise<void> {
    if (this.phase.value === 'placing' || this.phase.value === 'following') return;
    this.phase.value = 'placing';
    this.error.value = null;
    this.view.value = null;
    this.lastStatus = undefined;
    let view: WidgetCallView;
    try {
      view = await this.deps.transport.place(request);
    } catch (error) {
      this.fail(error, null);
      this.phase.value = 'idle';
      return;
    }
    this.show(view);
    this.phase.value = view.done ? 'done' : 'following';
    let failures = 0;
    let waiting = 0;
    while (!this.disposed && this.phase.value === 'following') {
      await this.deps.wait(readDelay(this.deps.pollMs ?? 1500, failures, waiting));
      if (this.disposed) return;
      try {
        const before = this.view.peek()?.status ?? null;
        this.show(await this.deps.transport.read(view.id));
        this.error.value = null;
        failures = 0;
        const now = this.view.peek()?.status ?? null;
        waiting = now === before && WAITING_TO_START.has(now) && !this.stopping.value ? waiting + 1 : 0;
      } catch (error) {
        failures++;
        // Said, not thrown: the call goes on at the service; the next read may reach it.
        this.error.value = messageOf(error);
        if (codeOf(error) === 'unknown') {
          this.fail(error, this.view.value);
          this.phase.value = 'done';
        }
      }
    }
  }

  async stop(): Promise<void> {
    const id = this.view.value?.id;
    if (!id || this.phase.value !== 'following') return;
    this.stopping.value = true;
    try {
      this.show(await this.deps.transport.stop(id));
    } catch (error) {
      this.fail(error, this.view.value);
    } finally {
      this.stopping.value = false;
    }
  }

  dispose(): void {
    this.disposed = true;
  }

  private show(view: WidgetCallView): void {
    this.view.value = view;
    if (view.status !== this.lastStatus || (view.done && this.phase.value !== 'done')) {
      this.lastStatus = view.status;
      this.deps.emit(WIDGET_EVENTS.status, eventDetail(view));
    }
    if (view.done && this.phase.value !== 'done') {
      this.phase.value = 'done';
      this.deps.emit(WIDGET_EVENTS.done, eventDetail(view));
    }
  }

  private fail(error: unknown, view: WidgetCallView | null): void {
    this.error.value = messageOf(error);
    this.deps.emit(WIDGET_EVENTS.error, { ...eventDetail(view), message: messageOf(error), code: codeOf(error) });
  }
}

/** A refusal's code (the extension's WidgetRefused, the proxy transport's errors carry one too), else `failed`. */
function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code ? code.slice(0, 64) : 'failed';
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Statuses of a call that has not started yet (a batch waits for its start, at least two minutes). */
const WAITING_TO_START: ReadonlySet<string | null> = new Set([null, 'scheduled', 'queued']);

/**
 * The wait before the next read: the element's pace, backing off after failed reads, and, while the
 * call waits to start with nothing changing, growing by half each read up to 10 s (a batch call's
 * two-minute wait took 80 reads at the element's pace: tracking a call costs few requests).
 */
export function readDelay(pollMs: number, failures: number, unchangedWhileWaiting: number): number {
  if (failures > 0) return Math.min(30_000, pollMs * 2 ** Math.min(failures, 4));
  return Math.min(Math.max(pollMs, 10_000), pollMs * 1.5 ** Math.min(unchangedWhileWaiting, 10));
}

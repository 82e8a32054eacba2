/**
 * Webhook deliveries: one POST of the execution JSON per status change. Failures and timeouts (2 s)
 * are recorded and swallowed: a broken receiver must never break the sandbox. Deliveries for one
 * execution go out one after another so a receiver sees the statuses in order.
 */
export const WEBHOOK_TIMEOUT_MS = 2000;
const MAX_DELIVERIES = 20_000;

export interface WebhookDelivery {
  id: number;
  url: string;
  execution_id: string;
  status: string;
  at: string;
  /** pending until the receiver answers or the attempt fails. */
  outcome: 'pending' | 'delivered' | 'failed';
  http_status: number | null;
  error: string | null;
  ms: number | null;
  body: unknown;
}

export class Webhooks {
  deliveries: WebhookDelivery[] = [];
  private nextId = 1;
  private abort = new AbortController();
  private chains = new Map<string, Promise<void>>();

  send(url: string, executionId: string, status: string, body: unknown): void {
    const delivery: WebhookDelivery = {
      id: this.nextId++,
      url,
      execution_id: executionId,
      status,
      at: new Date().toISOString(),
      outcome: 'pending',
      http_status: null,
      error: null,
      ms: null,
      body,
    };
    // Keep the most recent deliveries only (each holds a full execution body).
    if (this.deliveries.length >= MAX_DELIVERIES) this.deliveries.splice(0, this.deliveries.length - MAX_DELIVERIES + 1);
    this.deliveries.push(delivery);
    const signal = this.abort.signal;
    const previous = this.chains.get(executionId) ?? Promise.resolve();
    const next = previous.then(() => this.post(delivery, signal));
    this.chains.set(executionId, next);
    void next.finally(() => {
      if (this.chains.get(executionId) === next) this.chains.delete(executionId);
    });
  }

  private async post(delivery: WebhookDelivery, closing: AbortSignal): Promise<void> {
    if (closing.aborted) {
      delivery.outcome = 'failed';
      delivery.error = 'sandbox reset or closed';
      return;
    }
    const started = Date.now();
    try {
      const res = await fetch(delivery.url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'User-Agent': 'voice-agent-sandbox-webhooks/1' },
        body: JSON.stringify(delivery.body),
        signal: AbortSignal.any([closing, AbortSignal.timeout(WEBHOOK_TIMEOUT_MS)]),
      });
      // Drain so the socket is released.
      await res.arrayBuffer().catch(() => undefined);
      delivery.http_status = res.status;
      delivery.outcome = res.ok ? 'delivered' : 'failed';
      if (!res.ok) delivery.error = `receiver answered ${res.status}`;
    } catch (err) {
      delivery.outcome = 'failed';
      delivery.error = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
    } finally {
      delivery.ms = Date.now() - started;
    }
  }

  /** Aborts in-flight deliveries and forgets the log (reset/close). */
  reset(): void {
    this.abort.abort();
    this.abort = new AbortController();
    this.chains.clear();
    this.deliveries = [];
  }
}

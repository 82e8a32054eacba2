// @vitest-environment happy-dom
// A plan over one message's 64 KB (issue 21 §4: about 300 cases were refused in the side panel) is saved
// in parts, each within the limit, through the background's real handlers, and stored whole.
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { savePlan } from '../../../components/plans/save-plan';
import { plansHandlers } from '../../../lib/background/handlers/plans';
import { InputError } from '../../../lib/background/input-error';
import { planStore } from '../../../lib/background/plan-store';
import { MAX_MESSAGE_BYTES, messageSize } from '../../../lib/message-size';
import { fakeBackground, ok } from '../ui/helpers';
import { plan } from './fixtures';

beforeEach(() => fakeBrowser.reset());

const ctx = { calls: null as never, openPanel: async () => undefined, now: () => 1_700_000_000_000 };
const big = plan({
  repeat: 2,
  cases: Array.from({ length: 400 }, (_, i) => ({
    id: `case-${i}`,
    label: `Case ${i}: books a call back at the time asked`,
    contact_number: `+1415555${String(2000 + i)}`,
    variables: { name: `Caller ${i}`, intent: 'callback', callback_time: 'Friday at 3pm' },
    expect: { status: 'completed' as const, extracted: { interested: { equals: true } } },
  })),
});

describe('saving a plan over 64 KB from the side panel', () => {
  it('goes in parts within the message limit and is stored whole, with the same checks', async () => {
    expect(messageSize({ type: 'plans/save', planId: 'big', plan: big })).toBeGreaterThan(MAX_MESSAGE_BYTES);
    // The background's real handlers answer (InputError as a refusal, as lib/background does).
    const bg = fakeBackground((r) => {
      const handler = (plansHandlers as Record<string, (req: unknown, c: typeof ctx) => Promise<unknown>>)[r.type];
      if (!handler) return undefined;
      return handler(r, ctx).then(ok, (e: unknown) => {
        if (e instanceof InputError) return { ok: false, error: { message: e.message } } as never;
        throw e;
      });
    });
    const reply = await savePlan('big', big);
    expect(reply).toMatchObject({ ok: true, data: { planId: 'big' } });
    const types = bg.requests.map((r) => r.type);
    expect(types.filter((t) => t === 'plans/upload-part').length).toBeGreaterThan(1);
    expect(types.at(-1)).toBe('plans/save-upload');
    for (const r of bg.requests) expect(messageSize(r)).toBeLessThanOrEqual(MAX_MESSAGE_BYTES);
    const stored = (await planStore.plans()).find((p) => p.id === 'big')!;
    expect(stored.plan.cases).toHaveLength(400);
    expect(stored.plan).toEqual(big);
  });

  it('a small plan still goes in one message', async () => {
    const bg = fakeBackground((r) => (r.type === 'plans/save' ? ok({ planId: 'small' }) : undefined));
    await savePlan('small', plan({ cases: [{ id: 'a', label: 'A', contact_number: '+14155550123' }] }));
    expect(bg.requests.map((r) => r.type)).toEqual(['plans/save']);
  });

  it('a part that never arrived: the save is refused with plan words, nothing stored', async () => {
    await expect(plansHandlers['plans/save-upload']({ type: 'plans/save-upload', planId: 'x', uploadId: 'never' }, ctx)).rejects.toThrow(
      /The test plan did not reach the extension’s background whole/,
    );
    expect(await planStore.plans()).toEqual([]);
  });
});

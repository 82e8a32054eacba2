/** The content script's check (no zod) and the background's zod schema give the same answers. */
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { parseWidgetAsk, WIDGET_CHANNEL } from '../../../lib/page/widget-ask';
import { widgetAsk } from '../../../lib/page/widget-messages';

const base = { channel: WIDGET_CHANNEL, dir: 'ask', nonce: 'abcdef0123456789' };
const place = { agentId: 'agent-1', toNumber: '+14155550123', variables: { name: 'Ada' }, via: 'call', transcripts: false };
const cases: [string, unknown][] = [
  ['hello', { ...base, kind: 'hello' }],
  ['place', { ...base, kind: 'place', request: place }],
  ['read', { ...base, kind: 'read', id: 'ticket_1' }],
  ['stop', { ...base, kind: 'stop', id: 'ticket_1' }],
  ['another channel', { ...base, channel: 'other', kind: 'hello' }],
  ['an answer, not an ask', { ...base, dir: 'answer', kind: 'hello' }],
  ['a key smuggled in', { ...base, kind: 'place', request: { ...place, apiKey: 'sk-1' } }],
  ['an extra top-level field', { ...base, kind: 'read', id: 'x', key: 'sk-1' }],
  ['a number not in E.164', { ...base, kind: 'place', request: { ...place, toNumber: '415 555 0123' } }],
  ['a variable that is not text', { ...base, kind: 'place', request: { ...place, variables: { n: 1 } } }],
  ['a bad via', { ...base, kind: 'place', request: { ...place, via: 'now' } }],
  ['an id with markup', { ...base, kind: 'read', id: '<img>' }],
  ['a short nonce', { ...base, nonce: 'x', kind: 'hello' }],
  ['not an object', 'hello'],
];

describe('widget messages', () => {
  it.each(cases)('%s: both checks agree', (_, message) => {
    const zodOk = widgetAsk.safeParse(message).success;
    expect(parseWidgetAsk(message) !== null).toBe(zodOk);
  });
  it('takes the four good ones', () => {
    expect(cases.slice(0, 4).every(([, m]) => parseWidgetAsk(m))).toBe(true);
  });
  // Firefox hands a content script the page's message through an Xray wrapper: its prototype is the
  // page's Object.prototype, not the content script's (seen in ESR 153: every ask was dropped). An
  // object made in another realm (node:vm) stands in for it.
  it("takes the four good ones made in another realm (the page's objects as Firefox's content script sees them)", () => {
    for (const [name, message] of cases.slice(0, 4)) {
      const foreign = runInNewContext(`(${JSON.stringify(message)})`) as unknown;
      expect(Object.getPrototypeOf(foreign)).not.toBe(Object.prototype);
      expect(parseWidgetAsk(foreign), name).toEqual(parseWidgetAsk(message));
    }
  });
  it('still refuses arrays, dates and class instances from another realm', () => {
    const other = (code: string) => runInNewContext(code) as unknown;
    expect(parseWidgetAsk(other(`Object.assign([], ${JSON.stringify({ ...base, kind: 'hello' })})`))).toBeNull();
    expect(parseWidgetAsk(other(`Object.assign(new Date(0), ${JSON.stringify({ ...base, kind: 'hello' })})`))).toBeNull();
    expect(parseWidgetAsk(other(`Object.assign(new (class Ask {})(), ${JSON.stringify({ ...base, kind: 'hello' })})`))).toBeNull();
    expect(parseWidgetAsk({ ...base, kind: 'place', request: { ...place, variables: other('Object.assign([], { name: "Ada" })') } })).toBeNull();
  });
});

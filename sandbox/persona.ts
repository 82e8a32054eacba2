/**
 * How the callee behaves, from the CSV row's variables, so a test plan can have passing and failing
 * cases on purpose. Pure. A row without these variables gets the default conversation (a callback
 * tomorrow at 10am), as before. Documented in sandbox/README.md ("Conversations follow the row").
 *
 * - `intent`: `callback` (default), `decline`, `question`, `hangup` (the callee hangs up early);
 * - `callback_time`: the time the callee asks for (intent callback);
 * - `question`: what the callee asks (intent question);
 * - `name` (or first_name, customer_name, full_name): who answers.
 */
export type Intent = 'callback' | 'decline' | 'question' | 'hangup';
export const INTENTS: readonly Intent[] = ['callback', 'decline', 'question', 'hangup'];

export interface Turn {
  role: 'assistant' | 'user';
  text: string;
}

/** A row variable by name, case-insensitive, trimmed; undefined when absent or blank. */
export function variable(data: Record<string, string>, ...names: string[]): string | undefined {
  for (const [key, value] of Object.entries(data)) {
    if (names.some((n) => n.toLowerCase() === key.toLowerCase()) && value.trim()) return value.trim();
  }
  return undefined;
}

export const recipientName = (data: Record<string, string>) => variable(data, 'name', 'first_name', 'customer_name', 'full_name');

/** Unknown intents fall back to the default conversation. */
export function intentOf(data: Record<string, string>): Intent {
  const raw = variable(data, 'intent')?.toLowerCase();
  return (INTENTS as readonly string[]).includes(raw ?? '') ? (raw as Intent) : 'callback';
}

const DEFAULT_QUESTION = 'how much does the monthly plan cost?';

export interface Persona {
  intent: Intent;
  name: string | undefined;
  /** Turns after the agent's pitch, up to (not including) any long-call small talk and the goodbye. */
  reply: Turn[];
  /** The goodbye (after any long-call small talk). */
  goodbye: Turn[];
  extracted: Record<string, string | boolean>;
  summary: string;
  hangupBy: 'Callee' | null;
  /** Seconds of conversation for this intent, from the nominal length. */
  seconds: (nominal: number) => number;
}

export function personaFor(data: Record<string, string>): Persona {
  const name = recipientName(data);
  const who = name ?? 'The recipient';
  const a = (text: string): Turn => ({ role: 'assistant', text });
  const u = (text: string): Turn => ({ role: 'user', text });
  const thanks = `Thank you${name ? `, ${name}` : ''}, have a great day!`;
  const base = { name, hangupBy: null, seconds: (n: number) => n };
  switch (intentOf(data)) {
    case 'decline':
      return {
        ...base,
        intent: 'decline',
        reply: [u("No thanks, I'm not interested."), a(`I understand. ${thanks}`)],
        goodbye: [u('Bye.')],
        extracted: { interested: false, wants_demo: false, customer_name: name ?? '' },
        summary: `${who} declined the walkthrough.`,
        seconds: (n) => Math.max(10, Math.round(n / 2)),
      };
    case 'question': {
      const question = variable(data, 'question') ?? DEFAULT_QUESTION;
      return {
        ...base,
        intent: 'question',
        reply: [u(`Maybe. First, ${question}`), a("Good question. I'll have a specialist email you the details today.")],
        goodbye: [a(thanks), u('Thanks, bye.')],
        extracted: { interested: true, wants_demo: false, question, customer_name: name ?? '' },
        summary: `${who} asked: ${question}`,
      };
    }
    case 'hangup':
      return {
        ...base,
        intent: 'hangup',
        reply: [u("Sorry, I can't talk now.")],
        goodbye: [],
        extracted: { interested: false, customer_name: name ?? '' },
        summary: `${who} hung up before the pitch was over.`,
        hangupBy: 'Callee',
        seconds: () => 8,
      };
    case 'callback': {
      const time = variable(data, 'callback_time');
      const said = time ?? 'tomorrow at 10am';
      return {
        ...base,
        intent: 'callback',
        reply: [
          u('Sure, that sounds interesting.'),
          a('Wonderful. When would be a good time for one of our specialists to call you back?'),
          u(`${said[0]!.toUpperCase()}${said.slice(1)} works for me.`),
        ],
        goodbye: [a(`Perfect, I've noted ${said}. ${thanks}`), u('Thanks, bye.')],
        extracted: { interested: true, callback_time: time ?? 'tomorrow 10am', wants_demo: true, customer_name: name ?? '' },
        summary: `${who} is interested in a walkthrough and asked for a call back ${time ?? 'tomorrow at 10am'}.`,
      };
    }
  }
}

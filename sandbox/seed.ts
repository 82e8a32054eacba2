/**
 * Seeded accounts A, B and C with fixed ids, so tests and benches can refer to them.
 *
 * Id scheme (readable in logs): account letter L in a/b/c, digit D in 1/2/3:
 * - agents, executions, phone numbers, knowledgebases: UUIDs `DDDDDDDD-LLLL-4LLL-8LLL-<kind><n>`;
 * - batches: 32 hex chars without dashes (as live); the secondary phone number also uses 32 hex,
 *   because live phone-number ids come in both forms.
 */
import { callResult, type Outcome } from './calls';
import type { AccountLetter } from './keys';
import type { Account, AgentRec, BatchRec, ExecRec, KbRec, PhoneRec, Store } from './store';

const LETTERS: Record<AccountLetter, { l: string; d: string }> = {
  A: { l: 'a', d: '1' },
  B: { l: 'b', d: '2' },
  C: { l: 'c', d: '3' },
};

function uuidOf(letter: AccountLetter, kind: string, n: number): string {
  const { l, d } = LETTERS[letter];
  return `${d.repeat(8)}-${l.repeat(4)}-4${l.repeat(3)}-8${l.repeat(3)}-${kind}${String(n).padStart(10, '0')}`;
}
const hexOf = (letter: AccountLetter, kind: string, n: number) =>
  `${LETTERS[letter].l.repeat(4)}${'0'.repeat(22)}${kind}${String(n).padStart(4, '0')}`;

const AREA: Record<AccountLetter, string> = { A: '415', B: '212', C: '312' };

function idsFor(letter: AccountLetter) {
  const area = AREA[letter];
  return {
    userId: uuidOf(letter, '00', 1),
    agents: { sales: uuidOf(letter, '0a', 1), reminder: uuidOf(letter, '0a', 2), survey: uuidOf(letter, '0a', 3) },
    phoneNumbers: {
      primary: { id: uuidOf(letter, '0f', 1), phone_number: `+1${area}5550101` },
      secondary: { id: hexOf(letter, '0f', 2), phone_number: `+1${area}5550102` },
    },
    knowledgebase: uuidOf(letter, '0c', 1),
    batch: hexOf(letter, '0b', 1),
    executions: { completed: uuidOf(letter, '0e', 1), busy: uuidOf(letter, '0e', 2), noAnswer: uuidOf(letter, '0e', 3) },
    /** Recipients of the seeded executions (their suffixes give the outcomes). */
    recipients: { completed: `+1${area}5551234`, busy: `+1${area}5551001`, noAnswer: `+1${area}5551002` },
  };
}

export const SEED = { A: idsFor('A'), B: idsFor('B'), C: idsFor('C') } as const;

/** Shortcuts for the most used seeded ids (account A, the owner key's account). */
export const AGENT_ID = SEED.A.agents.sales;
export const BATCH_ID = SEED.A.batch;
export const EXECUTION_ID = SEED.A.executions.completed;
export const PHONE_NUMBER = SEED.A.phoneNumbers.primary.phone_number;

const PROFILES: Record<AccountLetter, { name: string; email: string; wallet: number; org: string }> = {
  A: { name: 'Ada Owner', email: 'owner@acme.test', wallet: 1250.75, org: 'Acme Solar' },
  B: { name: 'Ben Other', email: 'ben@beta-labs.test', wallet: 310.2, org: 'Beta Labs' },
  C: { name: 'Cy Empty', email: 'cy@empty-wallet.test', wallet: 0, org: 'Cobalt Insurance' },
};

/** A task of spec 2.1 with every section filled as the service's examples show. */
export function sampleTask(opts: { welcome?: string; voice?: string } = {}): Record<string, unknown> {
  return {
    task_type: 'conversation',
    tools_config: {
      llm_agent: {
        model: 'gpt-4o-mini',
        max_tokens: 150,
        agent_flow_type: 'streaming',
        family: 'openai',
        provider: 'openai',
        base_url: 'https://api.openai.com/v1',
        temperature: 0.2,
        request_json: false,
        routes: {
          embedding_model: 'snowflake/snowflake-arctic-embed-m',
          routes: [
            {
              route_name: 'politics',
              utterances: ['Who should I vote for?', 'What do you think about the election?'],
              response: "Sorry, I can't discuss politics. Shall we get back to your appointment?",
              score_threshold: 0.9,
            },
          ],
        },
      },
      synthesizer: {
        provider: 'polly',
        provider_config: { voice: opts.voice ?? 'Matthew', engine: 'generative', sampling_rate: '8000', language: 'en-US' },
        stream: true,
        buffer_size: 150,
        audio_format: 'wav',
      },
      transcriber: {
        provider: 'deepgram',
        model: 'nova-2',
        language: 'en',
        stream: true,
        sampling_rate: 16000,
        encoding: 'linear16',
        endpointing: 100,
      },
      input: { provider: 'plivo', format: 'wav' },
      output: { provider: 'plivo', format: 'wav' },
      api_tools: null,
    },
    toolchain: { execution: 'parallel', pipelines: [['transcriber', 'llm', 'synthesizer']] },
    task_config: {
      hangup_after_silence: 10,
      incremental_delay: 400,
      number_of_words_for_interruption: 2,
      hangup_after_LLMCall: false,
      call_cancellation_prompt: null,
      backchanneling: false,
      backchanneling_message_gap: 5,
      backchanneling_start_delay: 5,
      ambient_noise: false,
      ambient_noise_track: 'office-ambience',
      call_terminate: 90,
      voicemail: false,
      inbound_limit: -1,
      whitelist_phone_numbers: ['<any>'],
      disallow_unknown_numbers: false,
    },
  };
}

/** A create body (`POST /v2/agent`) built from the seed's shapes, handy in tests. */
export function sampleAgentBody(name = 'Test agent'): { agent_config: Record<string, unknown>; agent_prompts: Record<string, { system_prompt: string }> } {
  return {
    agent_config: {
      agent_name: name,
      agent_welcome_message: 'Hello {name}, this is Ava. Do you have a minute?',
      webhook_url: null,
      agent_type: 'other',
      tasks: [sampleTask()],
    },
    agent_prompts: { task_1: { system_prompt: 'You are Ava, a polite assistant. Keep answers short.' } },
  };
}

const AGENT_DEFS = [
  {
    key: 'sales',
    name: 'Sales outreach',
    type: 'lead_qualification',
    welcome: 'Hello {name}! This is Ava from {org}. Do you have a minute to talk about solar panels?',
    prompt: 'You are Ava, a friendly sales assistant for {org}. Qualify the lead and book a call back.',
    voice: 'Joanna',
  },
  {
    key: 'reminder',
    name: 'Appointment reminder',
    type: 'appointment',
    welcome: 'Hi {name}, this is a reminder from {org} about your appointment tomorrow.',
    prompt: 'You remind customers of {org} about their appointments and reschedule when asked.',
    voice: 'Matthew',
  },
  {
    key: 'survey',
    name: 'Customer survey',
    type: 'survey',
    welcome: 'Hello {name}, {org} would love two minutes of your feedback.',
    prompt: 'You run a short satisfaction survey for {org}: three questions, scores from 1 to 5.',
    voice: 'Amy',
  },
] as const;

function seedAccount(letter: AccountLetter, now: number): Account {
  const ids = SEED[letter];
  const profile = PROFILES[letter];
  const ago = (minutes: number) => new Date(now - minutes * 60_000).toISOString();
  const orgFill = (text: string) => text.replaceAll('{org}', profile.org);

  const agents = new Map<string, AgentRec>();
  AGENT_DEFS.forEach((def, i) => {
    const id = ids.agents[def.key];
    const welcome = orgFill(def.welcome);
    agents.set(id, {
      id,
      agent_name: `${def.name} (${profile.org})`,
      agent_type: def.type,
      agent_status: 'processed',
      agent_welcome_message: welcome,
      webhook_url: null,
      tasks: [sampleTask({ welcome, voice: def.voice })],
      agent_prompts: { task_1: { system_prompt: orgFill(def.prompt) } },
      ingest_source_config: null,
      extra: {},
      created_at: ago(60 * 24 * (30 - i)),
      updated_at: ago(60 * 24 * (10 - i)),
    });
  });

  const phoneNumbers = new Map<string, PhoneRec>();
  const phones = [
    { ...ids.phoneNumbers.primary, provider: 'twilio', agent: ids.agents.sales },
    { ...ids.phoneNumbers.secondary, provider: 'plivo', agent: null },
  ];
  for (const phone of phones) {
    phoneNumbers.set(phone.id, {
      id: phone.id,
      phone_number: phone.phone_number,
      agent_id: phone.agent,
      telephony_provider: phone.provider,
      rented: true,
      price: 5,
      created_at: ago(60 * 24 * 40),
      updated_at: ago(60 * 24 * 40),
      renewal_at: new Date(now + 20 * 86_400_000).toISOString(),
    });
  }

  const knowledgebases = new Map<string, KbRec>();
  knowledgebases.set(ids.knowledgebase, {
    rag_id: ids.knowledgebase,
    vector_id: `vec_${ids.knowledgebase.slice(-12)}`,
    file_name: 'product-faq.pdf',
    source_type: 'pdf',
    status: 'processed',
    chunk_size: 512,
    similarity_top_k: 15,
    overlapping: 128,
    language_support: 'en',
    url: null,
    created_at: ago(60 * 24 * 20),
    updated_at: ago(60 * 24 * 20),
  });

  // One finished batch of three calls: one completed with a full result, one busy, one no-answer.
  const batchCreated = now - 26 * 3_600_000;
  const rows: Array<{ id: string; to: string; outcome: Outcome; data: Record<string, string> }> = [
    { id: ids.executions.completed, to: ids.recipients.completed, outcome: 'completed', data: { name: 'Grace Hopper', city: 'Arlington' } },
    { id: ids.executions.busy, to: ids.recipients.busy, outcome: 'busy', data: { name: 'Alan Turing', city: 'Wilmslow' } },
    { id: ids.executions.noAnswer, to: ids.recipients.noAnswer, outcome: 'no-answer', data: { name: 'Ada Lovelace', city: 'London' } },
  ];
  const agent = agents.get(ids.agents.sales)!;
  const executions = new Map<string, ExecRec>();
  rows.forEach((row, i) => {
    const started = batchCreated + 15 * 60_000 + i * 1000;
    const result = callResult(row.outcome, {
      agentName: agent.agent_name,
      welcomeMessage: agent.agent_welcome_message,
      recipientData: row.data,
      toNumber: row.to,
    });
    executions.set(row.id, {
      ...result,
      id: row.id,
      agent_id: agent.id,
      batch_id: ids.batch,
      status: row.outcome,
      outcome: row.outcome,
      created_at: new Date(batchCreated).toISOString(),
      updated_at: new Date(started + 90_000).toISOString(),
      to_number: row.to,
      from_number: ids.phoneNumbers.primary.phone_number,
      provider: 'twilio',
      provider_call_id: `CA${row.id.replace(/-/g, '')}`,
      recipient_data: row.data,
      retried: 0,
      answered_at_ms: row.outcome === 'completed' ? started + 8000 : null,
    });
  });
  const batches = new Map<string, BatchRec>();
  batches.set(ids.batch, {
    batch_id: ids.batch,
    agent_id: agent.id,
    status: 'completed',
    scheduled_at: new Date(batchCreated + 15 * 60_000).toISOString().replace(/\.\d{3}Z$/, '+00:00'),
    created_at: new Date(batchCreated).toISOString(),
    updated_at: new Date(batchCreated + 20 * 60_000).toISOString(),
    file_name: 'leads-week-1.csv',
    valid_contacts: rows.length,
    total_contacts: rows.length,
    from_phone_numbers: [ids.phoneNumbers.primary.phone_number],
    webhook_url: null,
    retry_config: null,
    bypass_call_guardrails: false,
    execution_ids: rows.map((r) => r.id),
  });

  return {
    letter,
    id: ids.userId,
    name: profile.name,
    email: profile.email,
    wallet: profile.wallet,
    concurrencyMax: letter === 'A' ? 10 : 2,
    agents,
    phoneNumbers,
    knowledgebases,
    batches,
    executions,
  };
}

/** Clears `store` and fills it with the three seeded accounts. */
export function seedStore(store: Store, now = Date.now()): void {
  store.clear();
  for (const letter of ['A', 'B', 'C'] as const) store.accounts.set(letter, seedAccount(letter, now));
}

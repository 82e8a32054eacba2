/**
 * In-memory state of the sandbox: accounts with their agents, numbers, knowledgebases, batches and
 * executions, plus the test-visible logs. Everything is per account, so another account's ids are
 * simply not found (404), as the spec asks.
 */
import type { AccountLetter } from './keys';
import type { Outcome, ResultFields } from './calls';

export interface AgentRec {
  id: string;
  agent_name: string;
  agent_type: string;
  agent_status: string;
  agent_welcome_message: string | null;
  webhook_url: string | null;
  tasks: unknown[];
  agent_prompts: Record<string, { system_prompt: string }>;
  ingest_source_config: Record<string, unknown> | null;
  /** agent_config keys beyond the spec's, kept and echoed back (the service is lenient). */
  extra: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}

export interface PhoneRec {
  id: string;
  phone_number: string;
  agent_id: string | null;
  telephony_provider: string;
  rented: boolean;
  price: number;
  created_at: string;
  updated_at: string;
  renewal_at: string;
}

export interface KbRec {
  rag_id: string;
  vector_id: string;
  file_name: string;
  source_type: 'pdf' | 'url';
  status: 'processing' | 'processed' | 'error';
  /** Why ingestion ended in `error`. */
  error_message?: string;
  chunk_size: number;
  similarity_top_k: number;
  overlapping: number;
  language_support: string | null;
  url: string | null;
  created_at: string;
  updated_at: string;
}

export type BatchState = 'created' | 'scheduled' | 'running' | 'completed' | 'stopped' | 'failed';

export interface BatchRec {
  batch_id: string;
  agent_id: string;
  status: BatchState;
  scheduled_at: string | null;
  created_at: string;
  updated_at: string;
  file_name: string;
  valid_contacts: number;
  total_contacts: number;
  from_phone_numbers: string[];
  webhook_url: string | null;
  retry_config: Record<string, unknown> | null;
  bypass_call_guardrails: boolean;
  execution_ids: string[];
  /** Cancels the pending start timer, if scheduled. */
  cancelStart?: () => void;
}

export interface ExecRec extends ResultFields {
  id: string;
  agent_id: string;
  batch_id: string | null;
  status: string;
  outcome: Outcome;
  created_at: string;
  updated_at: string;
  to_number: string;
  from_number: string;
  provider: string;
  provider_call_id: string | null;
  recipient_data: Record<string, string>;
  retried: number;
  /** Real time the call was answered, for the log's timestamps and a stopped call's duration. */
  answered_at_ms: number | null;
  /** Cancels the pending phase timer. */
  cancelPhase?: () => void;
}

export interface Account {
  letter: AccountLetter;
  id: string;
  name: string;
  email: string;
  /** Dollars; calls deduct their cost (cents / 100). */
  wallet: number;
  concurrencyMax: number;
  agents: Map<string, AgentRec>;
  phoneNumbers: Map<string, PhoneRec>;
  knowledgebases: Map<string, KbRec>;
  batches: Map<string, BatchRec>;
  executions: Map<string, ExecRec>;
}

export interface RequestLogEntry {
  method: string;
  path: string;
  status: number;
  at: string;
  ms: number;
  /** Account letter of the key used, when the key was valid. */
  account?: AccountLetter;
  fault?: boolean;
  /** The JSON body of a write, as sent (secrets masked; see request-log.ts). */
  body?: unknown;
}

/** Logs keep the most recent entries only, so a long bench cannot exhaust memory. */
export const MAX_LOG_ENTRIES = 100_000;

export class Store {
  accounts = new Map<AccountLetter, Account>();
  requests: RequestLogEntry[] = [];
  /** Every execution status change with its time, so benches can measure how late a client sees it. */
  statusEvents: { execution_id: string; status: string; at: number }[] = [];

  account(letter: AccountLetter): Account {
    const account = this.accounts.get(letter);
    if (!account) throw new Error(`account ${letter} is not seeded`);
    return account;
  }

  /** Recordings need no key, so their execution is looked up across accounts. */
  findExecution(id: string): { account: Account; exec: ExecRec } | undefined {
    for (const account of this.accounts.values()) {
      const exec = account.executions.get(id);
      if (exec) return { account, exec };
    }
    return undefined;
  }

  clear(): void {
    this.accounts.clear();
    this.requests = [];
    this.statusEvents = [];
  }
}

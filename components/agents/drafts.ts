/**
 * What the user typed in the Agents section's editors, kept for the life of the page: the section
 * is unmounted when another section is shown, and coming back must find every draft as it was.
 */
import { signal } from '@preact/signals';
import type { AgentEdits } from '../../lib/agents/edit';

/** A new agent's document, with the text it started from (an edited draft is never replaced unasked). */
export interface CreateDraft {
  text: string;
  initial: string;
  /** Where the document came from, as a sentence. */
  note: string;
}

/** Edit-form values by agent id. */
export const editDrafts = signal<Record<string, AgentEdits>>({});
/** PUT documents by agent id. */
export const replaceDrafts = signal<Record<string, string>>({});
export const createDraft = signal<CreateDraft | null>(null);

export function forgetDrafts(agentId: string): void {
  const { [agentId]: _edits, ...edits } = editDrafts.value;
  const { [agentId]: _replace, ...replace } = replaceDrafts.value;
  editDrafts.value = edits;
  replaceDrafts.value = replace;
}

/**
 * What the Batches section keeps while it is not on screen (opening an execution replaces the
 * section; Back brings it back as it was): the open batch and the new batch's draft, so nothing
 * the user chose or typed is lost.
 */
import { signal } from '@preact/signals';

/** The batch whose details are shown, or null for the list. */
export const openBatchId = signal<string | null>(null);

export interface Draft {
  /** The contact list's text, as read from the file and edited in place. */
  text: string;
  fileName: string;
  country: string;
}
export const draft = signal<Draft | null>(null);

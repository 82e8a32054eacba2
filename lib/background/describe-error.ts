/** Turns anything thrown while talking to the service into words for a person (never the key). */
import type { StepError } from '../placement/outcome';
import { ActiveCallError } from '../calls/latest';
import { describeServiceError } from '../placement/describe';
import type { ReplyError } from '../messages';
import { NoKeyError } from './service';

export function describeError(error: unknown): StepError & ReplyError {
  if (error instanceof NoKeyError) return { message: error.message, transient: false, kind: 'no-key' };
  if (error instanceof ActiveCallError) return { message: error.message, transient: false, kind: 'active-call' };
  return describeServiceError(error) as StepError & ReplyError;
}

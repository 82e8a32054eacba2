/** Pieces every request schema shares: one rule each. */
import { z } from '../zod';

export const id = z.string().min(1).max(128);
export const country = z.string().regex(/^[A-Z]{2}$/, 'country must be a two-letter code such as US');
export const e164 = z.string().regex(/^\+[1-9]\d{1,14}$/, 'the number must be in E.164 form, like +14155550123');

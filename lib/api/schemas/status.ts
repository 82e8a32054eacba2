import { z } from '../zod';
import { normalizeExecutionStatus, type BatchStatus } from '../status-vocabulary';

export * from '../status-vocabulary';

export const executionStatus = z.string().min(1).transform(normalizeExecutionStatus);

export const batchStatus = z.string().min(1).transform((s) => s.trim().toLowerCase() as BatchStatus);

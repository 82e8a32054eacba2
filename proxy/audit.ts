/** The audit log's sinks: one JSON line per call placed. Node appends to a file; Workers log to the console (Logpush/tail). */
import type { Audit } from './placements';

export const consoleAudit: Audit = (entry) => console.log(JSON.stringify({ audit: 'widget-call', ...entry }));

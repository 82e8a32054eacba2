// Zod 4 probes `new Function` at first use, which an MV3 extension's CSP reports as a violation.
// Every schema module imports `z` from here so jitless mode is set before any schema is built.
import { z } from 'zod';

z.config({ jitless: true });

export { z };

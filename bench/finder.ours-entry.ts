// Bundled by bench/finder.ts into an IIFE (global `Ours`) and loaded into the benchmark page.
export { createScanner } from '../lib/phone/scan';
export { warmUpSteps } from '../lib/phone/find';

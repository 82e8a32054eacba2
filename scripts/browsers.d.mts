// Types for scripts/browsers.mjs (plain JS so `node scripts/*.mjs` runs it without a TypeScript loader).
export type BrowserId = 'chromium' | 'firefox';
export interface Browser {
  name: string;
  package: string;
  env: string;
  paths: string[];
}
export const BROWSERS: Record<BrowserId, Browser>;
export function browserPath(id: BrowserId, env?: Record<string, string | undefined>, exists?: (path: string) => boolean): string;
export type BrowserPlan =
  | { action: 'ready' }
  | { action: 'install'; packages: string[]; message: string }
  | { action: 'stop'; message: string };
export function browserPlan(input: {
  needed: BrowserId[];
  env?: Record<string, string | undefined>;
  exists: (path: string) => boolean;
  isRoot: boolean;
  hasAptGet: boolean;
}): BrowserPlan;
export function ensureBrowsers(needed: BrowserId[], env?: Record<string, string | undefined>): string | null;

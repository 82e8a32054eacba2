#!/usr/bin/env node
// `npx voice-agent-qa run plan.json …`: the command line of lib/plans/cli.ts. The TypeScript is loaded
// through tsx's loader in this same process (tsx is a devDependency, so `npm ci` installs it): no child
// process sits between the CI runner and the CLI, so SIGINT and SIGTERM reach the CLI itself, and
// stdout carries only what the CLI prints (no npm banner).
let tsImport;
try {
  ({ tsImport } = await import('tsx/esm/api'));
} catch {
  process.stderr.write('voice-agent-qa: tsx is missing. Run `npm ci` in the project first (tsx is one of its devDependencies).\n');
  process.exit(2);
}
await tsImport('../scripts/qa.ts', import.meta.url);

// `npx voice-agent-qa run plan.json --base-url … --junit out.xml` (bin/voice-agent-qa.mjs loads this file):
// the thin shell of lib/plans/cli.ts, with the process's signals and exit.
import en from '../public/_locales/en/messages.json';
import { useCatalogues } from '../lib/i18n';
import { EXIT, main } from '../lib/plans/cli';

// Node has no browser.i18n: the sentences shared with the extension (lib/api/schedule.ts…) come from the English catalogue.
useCatalogues(en);

main(process.argv.slice(2), process.env, { stdout: (t) => process.stdout.write(t), stderr: (t) => process.stderr.write(t) }, { signals: process, exit: (code) => process.exit(code) }).then(
  (code) => (process.exitCode = code),
  (error) => {
    process.stderr.write(`qa: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = EXIT.setup;
  },
);

// `npm run qa -- run plan.json --base-url … --junit out.xml`: the thin shell of lib/plans/cli.ts.
import en from '../public/_locales/en/messages.json';
import { useCatalogues } from '../lib/i18n';
import { main } from '../lib/plans/cli';

// Node has no browser.i18n: the sentences shared with the extension (lib/api/schedule.ts…) come from the English catalogue.
useCatalogues(en);

main(process.argv.slice(2), process.env, { stdout: (t) => process.stdout.write(t), stderr: (t) => process.stderr.write(t) }).then(
  (code) => (process.exitCode = code),
  (error) => {
    process.stderr.write(`qa: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  },
);

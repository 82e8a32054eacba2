// `npm run proxy` (serve) and `npm run proxy -- token …`: the thin Node entry of proxy/cli.ts.
import en from '../public/_locales/en/messages.json';
import { useCatalogues } from '../lib/i18n';
import { runProxyCommand } from './cli';

// Node has no browser.i18n: the sentences shared with the extension come from the English catalogue.
useCatalogues(en);

runProxyCommand(process.argv.slice(2), process.env, { stdout: (t) => process.stdout.write(t), stderr: (t) => process.stderr.write(t) }).then((code) => {
  if (code !== 0) process.exit(code);
});

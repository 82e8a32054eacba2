// `npm run qa -- run plan.json --base-url … --junit out.xml`: the thin shell of lib/plans/cli.ts.
import { main } from '../lib/plans/cli';

main(process.argv.slice(2), process.env, { stdout: (t) => process.stdout.write(t), stderr: (t) => process.stderr.write(t) }).then(
  (code) => (process.exitCode = code),
  (error) => {
    process.stderr.write(`qa: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  },
);

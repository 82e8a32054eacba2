/** CLI: `npm run sandbox -- --port 8787 --host 127.0.0.1 --speed 1 --routes both --rate-limit 1000`. */
import { CliError, parseCliArgs, USAGE } from './cli';
import { KEYS } from './keys';
import { startSandbox } from './server';

async function main(): Promise<void> {
  let cli;
  try {
    cli = parseCliArgs(process.argv.slice(2));
  } catch (err) {
    if (err instanceof CliError) {
      console.error(`sandbox: ${err.message}\n\n${USAGE}`);
      process.exit(2);
    }
    throw err;
  }
  if (cli.help) {
    console.log(USAGE);
    return;
  }
  let sandbox;
  try {
    sandbox = await startSandbox({
      port: cli.port,
      host: cli.host,
      speed: cli.speed,
      routes: cli.routes,
      rateLimitPerMinute: cli.rateLimitPerMinute,
      log: cli.quiet ? undefined : (line) => console.log(line),
    });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const reason = code === 'EADDRINUSE' ? `port ${cli.port} is already in use (try --port 0)` : err instanceof Error ? err.message : String(err);
    console.error(`sandbox: could not start: ${reason}`);
    process.exit(1);
  }
  const width = Math.max(...KEYS.map((k) => k.key.length));
  console.log(`Voice agent sandbox listening on ${sandbox.url}`);
  console.log(`  routes: ${cli.routes}   speed: ${cli.speed}x   rate limit: ${cli.rateLimitPerMinute}/min per key`);
  console.log('API keys (Authorization: Bearer <key>):');
  for (const k of KEYS) console.log(`  ${k.key.padEnd(width)}  ${k.purpose}`);
  console.log('Test numbers: a recipient ending 1001 busy, 1002 no-answer, 1003 failed, 1004 voicemail,');
  console.log('  1005 error, 1006 canceled, 1007 long call; anything else completes.');
  console.log(`Test controls (loopback only): ${sandbox.url}/__sandbox/  — Ctrl+C to stop.`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\nsandbox: ${signal}, closing`);
    sandbox.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

void main();

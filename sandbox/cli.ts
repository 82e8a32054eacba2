/** Command-line arguments of `npm run sandbox`, parsed and validated with clear errors. */
import type { RoutesMode } from './router';

export interface CliOptions {
  port: number;
  host: string;
  speed: number;
  routes: RoutesMode;
  rateLimitPerMinute: number;
  quiet: boolean;
  help: boolean;
}

export const USAGE = `Usage: npm run sandbox -- [options]

  --port <n>         port to listen on, 0 for a free one (default 8787)
  --host <addr>      address to bind (default 127.0.0.1)
  --speed <x>        time factor for call walks and schedule waits (default 1; 60 = a minute per second)
  --routes <form>    spec | live | both: which form of the routes exists (default both)
  --rate-limit <n>   requests per minute per key before 429 (default 1000)
  --quiet            do not print one line per request
  --help             show this help`;

export class CliError extends Error {
  override name = 'CliError';
}

export function parseCliArgs(argv: readonly string[]): CliOptions {
  const out: CliOptions = { port: 8787, host: '127.0.0.1', speed: 1, routes: 'both', rateLimitPerMinute: 1000, quiet: false, help: false };
  const args = [...argv];
  while (args.length) {
    const arg = args.shift()!;
    if (arg === '--') continue;
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const takeValue = (): string => {
      if (eq > 0) return arg.slice(eq + 1);
      const value = args.shift();
      if (value === undefined || value.startsWith('--')) throw new CliError(`${name} needs a value`);
      return value;
    };
    switch (name) {
      case '--help':
      case '-h':
        out.help = true;
        break;
      case '--quiet':
        out.quiet = true;
        break;
      case '--port': {
        const value = takeValue();
        const port = Number(value);
        if (!/^\d+$/.test(value) || port > 65535) throw new CliError(`--port must be an integer from 0 to 65535, got '${value}'`);
        out.port = port;
        break;
      }
      case '--host': {
        const value = takeValue().trim();
        if (!value) throw new CliError('--host must not be empty');
        out.host = value;
        break;
      }
      case '--speed': {
        const value = takeValue();
        const speed = Number(value);
        if (!Number.isFinite(speed) || speed <= 0 || speed > 100_000) throw new CliError(`--speed must be a number above 0 (at most 100000), got '${value}'`);
        out.speed = speed;
        break;
      }
      case '--routes': {
        const value = takeValue();
        if (value !== 'spec' && value !== 'live' && value !== 'both') throw new CliError(`--routes must be spec, live or both, got '${value}'`);
        out.routes = value;
        break;
      }
      case '--rate-limit': {
        const value = takeValue();
        const n = Number(value);
        if (!/^\d+$/.test(value) || n < 1) throw new CliError(`--rate-limit must be a positive integer, got '${value}'`);
        out.rateLimitPerMinute = n;
        break;
      }
      default:
        throw new CliError(`unknown option '${arg}'`);
    }
  }
  return out;
}

/**
 * `npm run proxy` and `npm run proxy -- token …`: the arguments, parsed with clear errors (pure, so
 * tests need no process), and the two commands. The key and the secret come from the environment only:
 * an argument would end up in shell history and the process list.
 */
import { readFile } from 'node:fs/promises';
import { ConfigError, ENV, readConfig, readSecret } from './config';
import { startProxy } from './node';
import { agentAllowed, originAllowed, parsePolicy, PolicyError, type Policy } from './policy';
import { mintWidgetToken, normalOrigin } from './token';

export const USAGE = `Usage:
  npm run proxy [-- --port 8790] [--host 127.0.0.1] [--policy proxy.policy.json] [--audit proxy-audit.jsonl] [--widget .output/widget]
      serves the widget proxy (${ENV.key}, ${ENV.baseUrl} and ${ENV.secret} from the environment)
  npm run proxy -- token --origin https://crm.example --agents <id1,id2> [--minutes 10] [--who <label>] [--policy proxy.policy.json]
      prints a widget token for that page origin and those agents (${ENV.secret} from the environment)`;

export class UsageError extends Error {
  override name = 'UsageError';
}

export type ProxyArgs =
  | { command: 'serve'; port: number; host: string; policyPath: string; auditFile: string; widgetDir: string }
  | { command: 'token'; origin: string; agents: string[]; minutes: number; who?: string; policyPath?: string }
  | { command: 'help' };

export const DEFAULT_POLICY = 'proxy.policy.json';

export function parseProxyArgs(argv: readonly string[]): ProxyArgs {
  const flags = new Map<string, string>();
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') return { command: 'help' };
    if (arg.startsWith('--')) {
      const [name, inline] = arg.split(/=(.*)/s, 2) as [string, string | undefined];
      const value = inline ?? argv[++i];
      if (value === undefined || value.startsWith('--')) throw new UsageError(`${name} needs a value.`);
      flags.set(name, value);
    } else positional.push(arg);
  }
  const command = positional[0] ?? 'serve';
  if (positional.length > 1) throw new UsageError(`Unexpected argument "${positional[1]}".`);
  const known = command === 'token' ? ['--origin', '--agents', '--minutes', '--who', '--policy'] : ['--port', '--host', '--policy', '--audit', '--widget'];
  if (command !== 'token' && command !== 'serve') throw new UsageError(`Unknown command "${command}": serve (the default) or token.`);
  for (const name of flags.keys()) if (!known.includes(name)) throw new UsageError(`Unknown option ${name} for ${command}.`);

  if (command === 'token') {
    const origin = flags.get('--origin');
    if (!origin) throw new UsageError('token needs --origin, the page origin that will use it (https://crm.example).');
    if (!normalOrigin(origin)) throw new UsageError(`--origin "${origin}" is not a page origin: scheme, host and port only, https (plain http only on loopback).`);
    const agents = (flags.get('--agents') ?? '').split(',').map((a) => a.trim()).filter(Boolean);
    if (agents.length === 0) throw new UsageError('token needs --agents, one or more agent ids separated by commas.');
    const minutes = Number(flags.get('--minutes') ?? '10');
    if (!(minutes > 0 && minutes <= 60)) throw new UsageError('--minutes takes a number above 0 and at most 60.');
    return { command, origin: normalOrigin(origin)!, agents, minutes, who: flags.get('--who'), policyPath: flags.get('--policy') };
  }
  const port = Number(flags.get('--port') ?? '8790');
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError('--port takes a port number from 0 to 65535.');
  return {
    command,
    port,
    host: flags.get('--host') ?? '127.0.0.1',
    policyPath: flags.get('--policy') ?? DEFAULT_POLICY,
    auditFile: flags.get('--audit') ?? 'proxy-audit.jsonl',
    widgetDir: flags.get('--widget') ?? '.output/widget',
  };
}

export async function loadPolicyFile(path: string): Promise<Policy> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new PolicyError(`Cannot read the policy file ${path}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'it does not exist (docs/proxy.md shows its format; --policy names another)' : (error as Error).message}.`);
  }
  return parsePolicy(text, path);
}

export interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/** Runs a command; answers the exit code (serve answers 0 once listening and keeps the process alive). */
export async function runProxyCommand(argv: readonly string[], env: Record<string, string | undefined>, io: Io): Promise<number> {
  try {
    const args = parseProxyArgs(argv);
    if (args.command === 'help') {
      io.stdout(`${USAGE}\n`);
      return 0;
    }
    if (args.command === 'token') {
      const secret = readSecret(env);
      if (args.policyPath) {
        // Minting for what the proxy would refuse anyway helps nobody: say so now.
        const policy = await loadPolicyFile(args.policyPath);
        for (const decision of [originAllowed(policy, args.origin), ...args.agents.map((a) => agentAllowed(policy, [a], a))]) {
          if (!decision.ok) throw new UsageError(decision.reason);
        }
      }
      const { token, claims } = await mintWidgetToken(secret, { origin: args.origin, agents: args.agents, minutes: args.minutes, who: args.who });
      io.stdout(`${token}\n`);
      io.stderr(`token ${claims.id} for ${claims.origin}, agents ${claims.agents.join(', ')}, valid until ${new Date(claims.exp).toISOString()}\n`);
      return 0;
    }
    const config = readConfig(env);
    const policy = await loadPolicyFile(args.policyPath);
    const proxy = await startProxy({ config, policy, port: args.port, host: args.host, auditFile: args.auditFile, widgetDir: args.widgetDir });
    // One write: a script reading the banner from a pipe gets it whole, not line by line in chunks.
    io.stdout(
      `Voice agent widget proxy listening on ${proxy.url}\n` +
        `  service: ${config.baseUrl}   policy: ${args.policyPath}   audit log: ${args.auditFile}\n` +
        `  origins: ${policy.origins.join(', ')}\n`,
    );
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`proxy: ${error.message}\n\n${USAGE}\n`);
      return 2;
    }
    if (error instanceof ConfigError || error instanceof PolicyError) {
      io.stderr(`proxy: ${error.message}\n`);
      return 2;
    }
    const code = (error as NodeJS.ErrnoException).code;
    io.stderr(`proxy: ${code === 'EADDRINUSE' ? 'the port is already in use (try --port 0)' : error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

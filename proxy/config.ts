/**
 * What the proxy reads from its environment: the service's key and address, and the widget tokens'
 * secret. The address follows the project's one host rule (lib/settings/checks.ts): HTTPS, or plain
 * HTTP to a loopback host only. Errors name the variable, never its value.
 */
import { checkBaseUrl } from '../lib/settings/checks';
import { MIN_SECRET_LENGTH } from './token';

export const ENV = {
  key: 'VOICE_AGENT_API_KEY',
  baseUrl: 'VOICE_AGENT_BASE_URL',
  secret: 'VOICE_AGENT_PROXY_SECRET',
} as const;

export interface ProxyConfig {
  apiKey: string;
  baseUrl: string;
  secret: string;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function readSecret(env: Record<string, string | undefined>): string {
  const secret = env[ENV.secret]?.trim();
  if (!secret) throw new ConfigError(`${ENV.secret} is not set: the secret that signs widget tokens (at least ${MIN_SECRET_LENGTH} characters, e.g. \`openssl rand -base64 32\`).`);
  if (secret.length < MIN_SECRET_LENGTH) throw new ConfigError(`${ENV.secret} is too short: at least ${MIN_SECRET_LENGTH} characters (e.g. \`openssl rand -base64 32\`).`);
  return secret;
}

export function readConfig(env: Record<string, string | undefined>): ProxyConfig {
  const apiKey = env[ENV.key]?.trim();
  if (!apiKey) throw new ConfigError(`${ENV.key} is not set: the service's API key (it stays in the proxy; pages never see it).`);
  const given = env[ENV.baseUrl]?.trim();
  if (!given) throw new ConfigError(`${ENV.baseUrl} is not set: the service's address (https://…, or http://127.0.0.1:8787 for the local sandbox).`);
  const checked = checkBaseUrl(given);
  if (!checked.ok) throw new ConfigError(`${ENV.baseUrl} "${given}": ${checked.error}`);
  return { apiKey, baseUrl: checked.baseUrl, secret: readSecret(env) };
}

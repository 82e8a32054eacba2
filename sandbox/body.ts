/**
 * Request bodies: the service takes multipart (batches, knowledgebases), and JSON elsewhere; the
 * old spec form of scheduling takes either. One reader gives handlers a uniform view of the fields.
 */
import { badRequest } from './errors';
import type { SandboxContext } from './router';

export interface Fields {
  /** First value as text (JSON numbers and booleans as text, objects as JSON). */
  text(name: string): string | undefined;
  /** Every value of a repeated field, as text. */
  texts(name: string): string[];
  file(name: string): File | undefined;
  /** The JSON value as sent (undefined for form bodies). */
  json(name: string): unknown;
  kind: 'form' | 'json' | 'none';
}

const asText = (value: unknown): string | undefined => {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof File) return undefined;
  return JSON.stringify(value);
};

export async function readFields(c: SandboxContext): Promise<Fields> {
  const type = c.req.header('content-type') ?? '';
  if (/multipart\/form-data|application\/x-www-form-urlencoded/i.test(type)) {
    let form: FormData;
    try {
      form = await c.req.formData();
    } catch {
      throw badRequest('could not parse the form body');
    }
    return {
      kind: 'form',
      text: (name) => {
        const value = form.get(name);
        return typeof value === 'string' ? value : undefined;
      },
      texts: (name) => form.getAll(name).filter((v): v is string => typeof v === 'string'),
      file: (name) => {
        const value = form.get(name);
        return value instanceof File ? value : undefined;
      },
      json: () => undefined,
    };
  }
  const raw = await c.req.text();
  if (!raw.trim()) return { kind: 'none', text: () => undefined, texts: () => [], file: () => undefined, json: () => undefined };
  const obj = parseJsonObject(raw);
  return {
    kind: 'json',
    text: (name) => {
      const value = obj[name];
      return asText(Array.isArray(value) ? value[0] : value);
    },
    texts: (name) => {
      const value = obj[name];
      const list = Array.isArray(value) ? value : value === undefined ? [] : [value];
      return list.map(asText).filter((v): v is string => v !== undefined);
    },
    file: () => undefined,
    json: (name) => obj[name],
  };
}

/** The JSON body as an object (agent routes); 400 when absent or not an object. */
export async function readJsonObject(c: SandboxContext): Promise<Record<string, unknown>> {
  const raw = await c.req.text();
  if (!raw.trim()) throw badRequest('a JSON body is required');
  return parseJsonObject(raw);
}

/** A non-empty body as a JSON object; 400 when it is not JSON or not an object. */
function parseJsonObject(raw: string): Record<string, unknown> {
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    throw badRequest('invalid JSON body');
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) throw badRequest('the JSON body must be an object');
  return data as Record<string, unknown>;
}

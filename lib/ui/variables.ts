import { validateVariables } from '../calls/csv';

export interface VariableRow {
  /** Stable key for rendering. */
  key: number;
  name: string;
  value: string;
}

let nextKey = 1;
export function variableRow(name = '', value = ''): VariableRow {
  return { key: nextKey++, name, value };
}

export function rowsFromVariables(variables: Record<string, string> | null | undefined): VariableRow[] {
  return Object.entries(variables ?? {}).map(([name, value]) => variableRow(name, value));
}

export type VariablesCheck = { ok: true; variables: Record<string, string> } | { ok: false; errors: string[] };

/** Rows → the variables sent with the call. Fully empty rows are ignored; everything else is checked. */
export function checkVariables(rows: VariableRow[]): VariablesCheck {
  const variables: Record<string, string> = {};
  const errors: string[] = [];
  const seen = new Set<string>();
  for (const row of rows) {
    const name = row.name.trim();
    if (!name && !row.value) continue;
    if (!name) {
      errors.push('A variable has a value but no name.');
      continue;
    }
    if (seen.has(name)) {
      errors.push(`The variable ${name} appears twice.`);
      continue;
    }
    seen.add(name);
    variables[name] = row.value;
  }
  if (Object.keys(variables).length > 50) errors.push('At most 50 variables can be sent with a call.');
  errors.push(...validateVariables(variables));
  return errors.length ? { ok: false, errors } : { ok: true, variables };
}

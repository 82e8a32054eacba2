/** Builds the one-row CSV of a single-call batch: `contact_number` plus the user's prompt variables. */

export class CsvError extends Error {
  override name = 'CsvError';
}

const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** RFC 4180 quoting: a field with a comma, quote or line break is quoted and its quotes doubled. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** Checks variable names and values; returns a message per problem key ("" key for general problems). */
export function validateVariables(variables: Record<string, string>): string[] {
  const problems: string[] = [];
  for (const [name, value] of Object.entries(variables)) {
    if (!VARIABLE_NAME.test(name)) {
      problems.push(`Variable name "${name}" must start with a letter or _ and use only letters, digits and _ (64 at most).`);
    } else if (name === 'contact_number') {
      problems.push('contact_number is filled from the phone number; choose another variable name.');
    }
    if (value.length > 2_000) problems.push(`The value of ${name} is over 2,000 characters.`);
  }
  return problems;
}

export function singleCallCsv(contactNumber: string, variables: Record<string, string> = {}): string {
  const problems = validateVariables(variables);
  if (problems.length) throw new CsvError(problems[0]);
  const names = Object.keys(variables);
  const header = ['contact_number', ...names].map(csvField).join(',');
  const row = [contactNumber, ...names.map((n) => variables[n] ?? '')].map(csvField).join(',');
  return `${header}\n${row}\n`;
}

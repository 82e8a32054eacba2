// js-yaml 4 comes with the project through eslint (@eslint/eslintrc) and has no bundled types; the one function the workflow test uses.
declare module 'js-yaml' {
  export function load(text: string): unknown;
}

// xml2js comes with web-ext (no types shipped); tests use it as a strict XML parser for the JUnit export.
declare module 'xml2js' {
  export function parseStringPromise(xml: string, options?: { strict?: boolean }): Promise<any>;
}

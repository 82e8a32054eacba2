// Types for scripts/chromium-grants.mjs (plain JS so `npm start` runs it without a TypeScript loader).
export function unpackedExtensionId(extensionDir: string): string;
export function writeGrantedOrigins(profileDir: string, extensionDir: string, origins: readonly string[]): void;

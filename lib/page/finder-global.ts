/**
 * Where the finder file (entrypoints/finder.ts), injected into a frame on the first stage's request,
 * leaves its start function for the first stage (entrypoints/content): a symbol on the global of
 * this extension's isolated world, which pages cannot see.
 */
export const FINDER_KEY = Symbol.for('voice-agent-click-to-call/finder');

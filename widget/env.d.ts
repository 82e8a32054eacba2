/** `?widget` JSON imports: a catalogue cut down to the widget's keys (widget/vite.config.ts). */
declare module '*.json?widget' {
  const catalogue: Record<string, { message: string; placeholders?: Record<string, { content: string }> }>;
  export default catalogue;
}

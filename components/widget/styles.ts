/** The element's own styles, inside its shadow root: the host page's CSS neither reaches in nor is touched. */
export const WIDGET_CSS = `
:host { display: block; font: 14px/1.4 system-ui, sans-serif; color: #1f2328; max-width: 28rem; }
.card { border: 1px solid #d0d7de; border-radius: 8px; padding: 12px; background: #fff; }
h2 { font-size: 1rem; margin: 0 0 8px; }
h3 { font-size: .9rem; margin: 12px 0 4px; }
p { margin: 4px 0; }
label { display: block; font-weight: 600; }
input { font: inherit; padding: 4px 6px; border: 1px solid #8c959f; border-radius: 4px; width: 100%; box-sizing: border-box; background: inherit; color: inherit; }
button { font: inherit; padding: 6px 12px; border-radius: 6px; border: 1px solid #1f6feb; background: #1f6feb; color: #fff; cursor: pointer; margin-top: 8px; }
button.secondary { background: transparent; color: #0550ae; border-color: #8c959f; }
button:disabled { opacity: .6; cursor: default; }
:focus-visible { outline: 2px solid #0969da; outline-offset: 2px; }
.hint { color: #57606a; }
.message-error { color: #a40e26; }
ol.timeline { list-style: none; padding: 0; margin: 8px 0; }
.timeline li { display: flex; justify-content: space-between; gap: 8px; color: #57606a; }
.timeline-current { font-weight: 600; color: #1f2328 !important; }
.timeline-time { font-variant-numeric: tabular-nums; }
ol.turns { list-style: none; padding: 0; margin: 0; max-height: 14rem; overflow: auto; }
.turn-speaker { font-weight: 600; margin-right: 4px; }
table { border-collapse: collapse; } th, td { text-align: left; padding: 2px 8px 2px 0; }
audio { width: 100%; }
a { color: #0550ae; }
@media (prefers-color-scheme: dark) {
  :host { color: #e6edf3; }
  .card { background: #0d1117; border-color: #30363d; }
  .hint, .timeline li { color: #9da7b3; }
  .timeline-current { color: #e6edf3 !important; }
  .message-error { color: #ff9492; }
  button { background: #1f6feb; border-color: #388bfd; }
  button.secondary { color: #79c0ff; border-color: #6e7681; }
  a { color: #79c0ff; }
  input { border-color: #6e7681; }
}
`;

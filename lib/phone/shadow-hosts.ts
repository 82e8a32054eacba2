/** Which elements can have a shadow root: one rule for the scanner's walk and the first stage's look (no phone library here). */

/**
 * The elements a shadow root can be attached to (the DOM standard's valid shadow host names, for
 * attachShadow and declarative shadow roots alike): others are never asked for one — a table's
 * cells and rows are most of a large page's elements.
 */
const SHADOW_HOST_TAGS = new Set([
  'article', 'aside', 'blockquote', 'body', 'div', 'footer', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header',
  'main', 'nav', 'p', 'section', 'span',
]);
export function mayHostShadowRoot(tag: string): boolean {
  return SHADOW_HOST_TAGS.has(tag) || tag.includes('-');
}

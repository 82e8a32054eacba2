import type { ComponentChildren } from 'preact';
import { Fragment } from 'preact';
import { t, type MessageKey } from '../../lib/i18n';

// Private-use characters cannot come from a translation, so they mark where each node goes.
const OPEN = '\uE000';
const CLOSE = '\uE001';

/**
 * A whole translated sentence with elements inside it (a link, a code span): the message keeps its
 * placeholders (`$LINK$`) so translators can move them, and each is replaced by the node given in order.
 */
export function tNodes(key: MessageKey, ...nodes: ComponentChildren[]): ComponentChildren {
  const text = t(key, ...nodes.map((_, i) => `${OPEN}${i}${CLOSE}`));
  const parts = text.split(new RegExp(`${OPEN}(\\d+)${CLOSE}`));
  // split with a capture group: text, index, text, index, …
  return parts.map((part, i) => <Fragment key={i}>{i % 2 === 1 ? nodes[Number(part)] : part}</Fragment>);
}

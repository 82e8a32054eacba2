/**
 * Text whose words never break inside themselves, hyphenated ones included ("Click-to-Call"): lines
 * break only between words. For headings and names the browser would otherwise split at a hyphen.
 */
export function WholeWords({ text }: { text: string }) {
  const words = text.split(/(\s+)/);
  return (
    <>
      {words.map((part, i) => (/^\s+$/.test(part) ? part : part ? <span key={i} class="whole-word">{part}</span> : null))}
    </>
  );
}

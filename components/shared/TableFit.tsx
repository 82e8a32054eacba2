import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';

interface TableFitProps {
  children: ComponentChildren;
  class?: string;
  /** Given with `label`, the wrapper is a named region (a long list a screen reader can jump to). */
  label?: string;
}

/**
 * A table at its own width while its columns fit whole words, and stacked rows ("label: value", the
 * label from the column heading) below that width: measured, so it holds in every language. The
 * width the columns need is taken in table form; stacked, the table returns once the panel is that wide.
 */
export function TableFit({ children, class: className, label }: TableFitProps) {
  const wrap = useRef<HTMLDivElement>(null);
  const [stacked, setStacked] = useState(false);
  const needed = useRef(0);

  useLayoutEffect(() => labelCells(wrap.current));

  useLayoutEffect(() => {
    const el = wrap.current;
    if (!el || typeof ResizeObserver === 'undefined') return undefined;
    const check = () => {
      const table = el.querySelector('table');
      if (!table || el.clientWidth === 0) return;
      if (el.classList.contains('stacked')) {
        if (el.clientWidth >= needed.current) setStacked(false);
      } else if (table.offsetWidth > el.clientWidth + 1) {
        needed.current = table.offsetWidth;
        setStacked(true);
      }
    };
    check();
    const observer = new ResizeObserver(check);
    observer.observe(el);
    const table = el.querySelector('table');
    if (table) observer.observe(table);
    return () => observer.disconnect();
  });

  return (
    <div
      ref={wrap}
      class={['table-fit', stacked ? 'stacked' : '', className ?? ''].filter(Boolean).join(' ')}
      {...(label ? { role: 'region', 'aria-label': label } : {})}
    >
      {children}
    </div>
  );
}

/** Gives each body cell its column's heading as `data-label` (empty for a heading only screen readers get). */
export function labelCells(root: HTMLElement | null): void {
  const head = root?.querySelector('thead tr:last-child');
  if (!root || !head) return;
  const headings: string[] = [];
  for (const th of head.children) {
    const shown = [...th.childNodes].some((n) => !(n instanceof HTMLElement && n.classList.contains('visually-hidden')) && (n.textContent ?? '').trim() !== '');
    const text = shown ? (th.textContent ?? '').trim() : '';
    for (let i = 0; i < ((th as HTMLTableCellElement).colSpan || 1); i++) headings.push(text);
  }
  for (const row of root.querySelectorAll('tbody tr')) {
    let column = 0;
    for (const cell of row.children) {
      const text = headings[column] ?? '';
      if (cell.getAttribute('data-label') !== text) cell.setAttribute('data-label', text);
      column += (cell as HTMLTableCellElement).colSpan || 1;
    }
  }
}

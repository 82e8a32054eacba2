import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { MoreMenu } from './MoreMenu';
import { tabsThatFit, type TabDef } from './tabs-fit';

export type { TabDef };

interface TabsProps<T extends string> {
  label: string;
  tabs: TabDef<T>[];
  selected: T;
  onSelect(id: T): void;
  /** The menu that holds the tabs a narrow panel has no room for (none: the tabs wrap instead). */
  moreLabel?: string;
  children: ComponentChildren;
}

/**
 * ARIA tabs: arrow keys, Home and End move between tabs; the selected tab's panel follows.
 * With `moreLabel`, the navigation is one row at any width: the tabs that fit, in order, then a menu
 * with the rest. How many fit is measured (every label in the page's language, the widest the menu
 * button can get), so it changes with the width only, never with the section chosen.
 */
export function Tabs<T extends string>({ label, tabs, selected, onSelect, moreLabel, children }: TabsProps<T>) {
  const list = useRef<HTMLDivElement>(null);
  const nav = useRef<HTMLDivElement>(null);
  const measure = useRef<HTMLDivElement>(null);
  const [shown, setShown] = useState(tabs.length);
  const labels = tabs.map((tab) => tab.label).join('\n');

  useLayoutEffect(() => {
    if (!moreLabel || !nav.current || !measure.current || typeof ResizeObserver === 'undefined') return undefined;
    const fit = () => {
      // Not laid out (hidden, or a DOM without layout): every tab, as without the menu.
      if (nav.current!.clientWidth === 0) return setShown(tabs.length);
      const widths = [...measure.current!.children].map((el) => el.getBoundingClientRect().width);
      const n = tabs.length;
      setShown(tabsThatFit(widths.slice(0, n), widths.slice(n, 2 * n), widths[2 * n]!, nav.current!.clientWidth, 2));
    };
    fit();
    const observer = new ResizeObserver(fit);
    observer.observe(nav.current);
    return () => observer.disconnect();
  }, [labels, moreLabel]);

  const visible = moreLabel ? tabs.slice(0, shown) : tabs;
  const overflow = moreLabel ? tabs.slice(shown) : [];
  const selectedTab = tabs.find((t) => t.id === selected);
  const selectedVisible = visible.some((t) => t.id === selected);

  const move = (event: KeyboardEvent) => {
    const buttons = [...(list.current?.querySelectorAll<HTMLButtonElement>('[role="tab"]') ?? [])];
    const index = Math.max(0, buttons.indexOf(event.target as HTMLButtonElement));
    let next = -1;
    if (event.key === 'ArrowRight') next = (index + 1) % visible.length;
    else if (event.key === 'ArrowLeft') next = (index - 1 + visible.length) % visible.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = visible.length - 1;
    if (next < 0) return;
    event.preventDefault();
    onSelect(visible[next]!.id);
    buttons[next]?.focus();
  };
  const tabStop = selectedVisible ? selected : visible[0]?.id;

  return (
    <div class="tabs">
      <div class={moreLabel ? 'tabs-nav tabs-nav-one-row' : 'tabs-nav'} ref={nav}>
        <div role="tablist" aria-label={label} ref={list} onKeyDown={move}>
          {visible.map((tab) => (
            <button
              key={tab.id}
              type="button"
              role="tab"
              id={`tab-${tab.id}`}
              aria-selected={tab.id === selected ? 'true' : 'false'}
              aria-controls={`panel-${tab.id}`}
              tabIndex={tab.id === tabStop ? 0 : -1}
              onClick={() => onSelect(tab.id)}
            >
              {tab.label}
            </button>
          ))}
        </div>
        {moreLabel && overflow.length ? (
          <MoreMenu label={moreLabel} items={overflow} selected={selected} onSelect={onSelect} />
        ) : null}
        {moreLabel ? (
          // The same labels, laid out as tabs but unseen, to measure what fits (selected tabs are bold: all are).
          <div class="tabs-measure-box" aria-hidden="true">
          <div class="tabs-measure" ref={measure}>
            {tabs.map((tab) => (
              <span key={tab.id} class="tab-like">
                {tab.label}
              </span>
            ))}
            {tabs.map((tab) => (
              <span key={tab.id} class="tab-like tabs-more-button">
                {tab.label}
                <span class="tabs-more-arrow">▾</span>
              </span>
            ))}
            <span class="tab-like tabs-more-button">
              {moreLabel}
              <span class="tabs-more-arrow">▾</span>
            </span>
          </div>
          </div>
        ) : null}
      </div>
      <div
        role="tabpanel"
        id={`panel-${selected}`}
        {...(selectedVisible ? { 'aria-labelledby': `tab-${selected}` } : { 'aria-label': selectedTab?.label ?? label })}
        tabIndex={0}
      >
        {children}
      </div>
    </div>
  );
}

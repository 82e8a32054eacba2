import { useEffect, useRef, useState } from 'preact/hooks';
import type { TabDef } from './tabs-fit';

interface MoreMenuProps<T extends string> {
  label: string;
  items: TabDef<T>[];
  selected: T;
  onSelect(id: T): void;
}

/**
 * The sections a narrow panel has no room for, as a menu button (WAI-ARIA menu button pattern):
 * Enter, Space or ArrowDown open it on the checked item, arrow keys, Home and End move, Escape closes
 * and gives focus back. While one of its sections is shown, the button names it ("More: Numbers").
 */
export function MoreMenu<T extends string>({ label, items, selected, onSelect }: MoreMenuProps<T>) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const current = items.find((item) => item.id === selected);

  const itemButtons = () => [...(menu.current?.querySelectorAll<HTMLButtonElement>('[role="menuitemradio"]') ?? [])];
  useEffect(() => {
    if (!open) return undefined;
    const buttons = itemButtons();
    (buttons.find((b) => b.getAttribute('aria-checked') === 'true') ?? buttons[0])?.focus();
    const outside = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!menu.current?.contains(target) && !button.current?.contains(target)) setOpen(false);
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [open]);

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  const onMenuKey = (event: KeyboardEvent) => {
    const buttons = itemButtons();
    const index = buttons.indexOf(document.activeElement as HTMLButtonElement);
    let next = -1;
    if (event.key === 'ArrowDown') next = (index + 1) % buttons.length;
    else if (event.key === 'ArrowUp') next = (index - 1 + buttons.length) % buttons.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = buttons.length - 1;
    else if (event.key === 'Escape') {
      event.preventDefault();
      close();
      return;
    } else if (event.key === 'Tab') {
      setOpen(false);
      return;
    }
    if (next < 0) return;
    event.preventDefault();
    buttons[next]?.focus();
  };

  return (
    <div class="tabs-more">
      <button
        ref={button}
        type="button"
        class={current ? 'tabs-more-button tabs-more-current' : 'tabs-more-button'}
        aria-haspopup="menu"
        aria-expanded={open ? 'true' : 'false'}
        aria-controls={open ? 'tabs-more-menu' : undefined}
        onClick={() => setOpen(!open)}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
            event.preventDefault();
            setOpen(true);
          }
        }}
      >
        {current ? (
          <>
            <span class="visually-hidden">{label}: </span>
            {current.label}
          </>
        ) : (
          label
        )}
        <span class="tabs-more-arrow" aria-hidden="true">
          ▾
        </span>
      </button>
      {open ? (
        <div role="menu" id="tabs-more-menu" aria-label={label} ref={menu} onKeyDown={onMenuKey}>
          {items.map((item) => (
            <button
              key={item.id}
              type="button"
              role="menuitemradio"
              aria-checked={item.id === selected ? 'true' : 'false'}
              tabIndex={-1}
              onClick={() => {
                onSelect(item.id);
                close();
              }}
            >
              {item.label}
            </button>
          ))}
        </div>
      ) : null}
    </div>
  );
}

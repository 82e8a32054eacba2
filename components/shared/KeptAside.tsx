import { useState } from 'preact/hooks';
import { t, type MessageKey } from '../../lib/i18n';
import { readQuarantine } from '../../lib/store/data-db';
import { formatDateTime } from '../../lib/ui/format';
import { useStore } from '../../lib/ui/store';

interface KeptAsideProps {
  /** The quarantine source to report: `calls` or `settings`. */
  source: string;
  /** No longer shown (each source has its own whole sentences in the catalogue); kept for callers. */
  what?: string;
}

const TEXTS: Record<string, { label: MessageKey; text: MessageKey }> = {
  calls: { label: 'keptAside_callsLabel', text: 'keptAside_callsText' },
  settings: { label: 'keptAside_settingsLabel', text: 'keptAside_settingsText' },
};
const OTHER_TEXTS = { label: 'keptAside_otherLabel', text: 'keptAside_otherText' } as const;

/**
 * Says plainly that stored data could not be read and was kept aside untouched, when and why, and
 * lets the person save a copy of it. Nothing here deletes it.
 */
export function KeptAside({ source }: KeptAsideProps) {
  const store = useStore();
  const [error, setError] = useState('');
  const notices = store.keptAside.value.filter((n) => n.source === source);
  if (notices.length === 0) return null;

  const download = async () => {
    try {
      const entries = (await readQuarantine()).filter((e) => e.source === source);
      const url = URL.createObjectURL(new Blob([JSON.stringify(entries, null, 2)], { type: 'application/json' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = `kept-aside-${source}.json`;
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch (e) {
      setError(t('keptAside_copyUnreadable', e instanceof Error ? e.message : String(e)));
    }
  };

  const texts = TEXTS[source] ?? OTHER_TEXTS;
  return (
    <section class="message message-warning" aria-label={t(texts.label)}>
      <p>{t(texts.text)}</p>
      <ul>
        {notices.map((n, i) => (
          <li key={i}>
            {t('keptAside_entry', formatDateTime(n.at), n.reason)}
          </li>
        ))}
      </ul>
      <button type="button" class="secondary small" onClick={() => void download()}>
        {t('keptAside_saveCopy')}
      </button>
      {error ? <p role="alert">{error}</p> : null}
    </section>
  );
}

import { useState } from 'preact/hooks';
import { readQuarantine } from '../../lib/store/data-db';
import { formatDateTime } from '../../lib/ui/format';
import { useStore } from '../../lib/ui/store';

interface KeptAsideProps {
  /** The quarantine source to report: `calls` or `settings`. */
  source: string;
  /** What it is, as a person says it: "call history", "settings". */
  what: string;
}

/**
 * Says plainly that stored data could not be read and was kept aside untouched, when and why, and
 * lets the person save a copy of it. Nothing here deletes it.
 */
export function KeptAside({ source, what }: KeptAsideProps) {
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
      setError(`The copy could not be read: ${e instanceof Error ? e.message : String(e)}`);
    }
  };

  return (
    <section class="message message-warning" aria-label={`Stored ${what} kept aside`}>
      <p>Some stored {what} could not be read. It is kept aside, untouched: nothing was deleted.</p>
      <ul>
        {notices.map((n, i) => (
          <li key={i}>
            {formatDateTime(n.at)}: {n.reason}
          </li>
        ))}
      </ul>
      <button type="button" class="secondary small" onClick={() => void download()}>
        Save a copy
      </button>
      {error ? <p role="alert">{error}</p> : null}
    </section>
  );
}

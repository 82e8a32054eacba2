import { useEffect, useState } from 'preact/hooks';
import { t } from '../../lib/i18n';
import type { SetupForm as SetupFormComponent } from './SetupForm';

/**
 * The setup form, loaded only when needed: the popup shows it on first run, and keeping it (and the
 * settings schema it validates with) out of the popup's first chunk keeps the popup quick to open.
 */
export function LazySetupForm(props: { onSaved?: () => void }) {
  const [Form, setForm] = useState<typeof SetupFormComponent | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    import('./SetupForm').then(
      (m) => setForm(() => m.SetupForm),
      () => setFailed(true),
    );
  }, []);
  if (failed) return <p role="alert">{t('setup_formNotLoaded')}</p>;
  if (!Form) return <p class="hint">{t('setup_loading')}</p>;
  return <Form {...props} />;
}

import { useState } from 'preact/hooks';
import { t } from '../../lib/i18n';
import type { TestCase } from '../../lib/plans/schema';
import { send } from '../../lib/ui/send';
import { ErrorMessage } from '../shared/Messages';

interface GuidedStartProps {
  planId: string;
  testCase: TestCase;
  onStarted(runId: string): void;
  onCancel(): void;
}

/** Starts a guided call: the tester says which phone to call and confirms; one case, one call. */
export function GuidedStart({ planId, testCase, onStarted, onCancel }: GuidedStartProps) {
  const [number, setNumber] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);
  // Chosen once: a double click or a retry after a lost answer starts the same run.
  const [runId] = useState(() => crypto.randomUUID());

  const start = async (e: Event) => {
    e.preventDefault();
    const toNumber = number.replace(/[\s().-]/g, '');
    // What was typed stays in the field.
    if (!/^\+[1-9]\d{1,14}$/.test(toNumber)) return setError(t('plans_yourNumberInvalid'));
    setStarting(true);
    const reply = await send({ type: 'plans/run-guided', planId, runId, caseId: testCase.id, toNumber });
    setStarting(false);
    if (reply.ok) onStarted(reply.data.runId);
    else setError(reply.error.message);
  };

  return (
    <form class="plans-confirm" aria-label={t('plans_guidedStartTitle', testCase.label)} onSubmit={start} noValidate>
      <h3>{t('plans_guidedStartTitle', testCase.label)}</h3>
      <p class="hint">{t('plans_guidedStartHint')}</p>
      <label class="field">
        {t('plans_yourNumber')}
        {/* An example number in E.164, the same in every language. */}
        <input value={number} onInput={(e) => setNumber((e.currentTarget as HTMLInputElement).value)} inputMode="tel" autoComplete="tel" placeholder="+14155550123" />
      </label>
      <ErrorMessage>{error}</ErrorMessage>
      <div class="actions">
        <button type="submit" class="primary" disabled={starting}>
          {t('plans_callMe')}
        </button>
        <button type="button" class="secondary" onClick={onCancel}>
          {t('plans_cancel')}
        </button>
      </div>
    </form>
  );
}

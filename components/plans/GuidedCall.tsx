import { useEffect, useState } from 'preact/hooks';
import { t } from '../../lib/i18n';
import type { ScriptStep } from '../../lib/plans/checks-schema';
import { callStartMs, elapsedText, NOTE_MAX } from '../../lib/plans/guided';
import { isRunActive, type PlanRun } from '../../lib/plans/run-state';
import { send } from '../../lib/ui/send';
import { ErrorMessage } from '../shared/Messages';
import { num } from './plural';

/** The elapsed time of the call, ticking once a second while the run is active. */
function useElapsed(run: PlanRun): number | null {
  const [now, setNow] = useState(Date.now());
  const active = isRunActive(run);
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [active]);
  const start = callStartMs(run);
  return start === null || now < start ? null : now - start;
}

/**
 * A step as the tester reads it, in the UI's language (the plan's own words, what to say, stay as
 * written). The exports keep lib/plans/guided.ts stepText's fixed English form.
 */
function stepLabel(step: ScriptStep): string {
  if (step.say !== undefined) return t('plans_stepSayText', step.say);
  if (step.silent !== undefined) return t('plans_stepSilentText', num(step.silent));
  if (step.interrupt !== undefined) return step.interrupt === true ? t('plans_stepInterruptText') : t('plans_stepInterruptSayingText', step.interrupt);
  if (step.press !== undefined) return t('plans_stepPressText', step.press);
  return t('plans_stepHangUpText');
}

/**
 * A guided run's caller script, step by step, for the tester on the phone: the elapsed time, and per
 * step Done or Wrong with a short note. Marks go to the background, which keeps them with the run, so
 * a closed and reopened panel shows them again (they come back through the stored run).
 */
export function GuidedCall({ run }: { run: PlanRun }) {
  const script = run.plan.cases[0]?.caller_script ?? [];
  const marks = run.guided?.marks ?? [];
  const elapsed = useElapsed(run);
  const [noting, setNoting] = useState<number | null>(null);
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);

  const mark = async (step: number, value: 'done' | 'wrong' | null, text = '') => {
    const reply = await send({ type: 'plans/mark-step', runId: run.id, step, mark: value, note: text, atMs: Math.round(elapsed ?? 0) });
    if (!reply.ok) return setError(reply.error.message);
    setError(null);
    setNoting(null);
    setNote('');
  };

  return (
    <section class="plans-guided" aria-label={t('plans_guidedScript')}>
      <h4>{t('plans_guidedTo', run.guided?.toNumber ?? '')}</h4>
      {isRunActive(run) ? <p class="hint" aria-live="off">{elapsed === null ? t('plans_waitingForCall') : t('plans_elapsed', elapsedText(elapsed))}</p> : null}
      <ol class="plans-steps">
        {script.map((step, i) => {
          const m = marks.find((x) => x.step === i);
          const n = num(i + 1);
          return (
            <li key={i} class={m ? `plans-step-${m.mark}` : undefined}>
              <span class="plans-step-text">{stepLabel(step)}</span>
              <span class="plans-step-mark">
                {m ? (m.mark === 'done' ? t('plans_markedDone', elapsedText(m.atMs)) : t('plans_markedWrong', elapsedText(m.atMs), m.note || '—')) : t('plans_notMarked')}
              </span>
              <span class="actions">
                <button type="button" class="secondary small" aria-label={t('plans_stepDoneOf', n)} aria-pressed={m?.mark === 'done'} onClick={() => void mark(i, 'done')}>
                  {t('plans_stepDone')}
                </button>
                <button type="button" class="secondary small" aria-label={t('plans_stepWrongOf', n)} aria-pressed={m?.mark === 'wrong'} onClick={() => (setNoting(i), setNote(m?.note ?? ''))}>
                  {t('plans_stepWrong')}
                </button>
                {m ? (
                  <button type="button" class="secondary small" onClick={() => void mark(i, null)}>
                    {t('plans_clearMark', n)}
                  </button>
                ) : null}
              </span>
              {noting === i ? (
                <form
                  class="plans-row"
                  onSubmit={(e) => {
                    e.preventDefault();
                    void mark(i, 'wrong', note);
                  }}
                >
                  <label>
                    {t('plans_stepNote')}
                    <input value={note} maxLength={NOTE_MAX} onInput={(e) => setNote((e.currentTarget as HTMLInputElement).value)} />
                  </label>
                  <button type="submit" class="primary small">
                    {t('plans_saveMark')}
                  </button>
                </form>
              ) : null}
            </li>
          );
        })}
      </ol>
      <ErrorMessage>{error}</ErrorMessage>
    </section>
  );
}

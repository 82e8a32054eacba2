import { t } from '../../lib/i18n';
import { parseTranscript, speakerLabel } from '../../lib/ui/format';

/**
 * The conversation as turns. Everything the service wrote is rendered as text. `scrolls`: the list is
 * a box of its own height (the widget's): it takes keyboard focus so it can be scrolled without a mouse.
 */
export function Transcript({ text, scrolls = false }: { text: string | null | undefined; scrolls?: boolean }) {
  const turns = parseTranscript(text);
  return (
    <section class="transcript" aria-labelledby="transcript-title">
      <h3 id="transcript-title">{t('transcript_title')}</h3>
      {turns.length === 0 ? (
        <p class="hint">{t('transcript_none')}</p>
      ) : (
        <ol class="turns" {...(scrolls ? { tabIndex: 0, 'aria-labelledby': 'transcript-title' } : {})}>
          {turns.map((turn, i) => (
            <li key={i} class={`turn turn-${turn.speaker ?? 'other'}`}>
              <span class="turn-speaker">{speakerLabel(turn.speaker)}</span>
              <span class="turn-text">{turn.text}</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

import { useState } from 'preact/hooks';
import type { Execution } from '../../lib/api/schemas/execution';
import { t } from '../../lib/i18n';
import { safeFileName } from '../../lib/ui/format';
import { StatusMessage } from '../shared/Messages';
import { SaveAsTestCase } from '../plans/SaveAsTestCase';

/** "Copy transcript" and "Download JSON" of an execution. */
export function ResultActions({ execution }: { execution: Execution }) {
  const [note, setNote] = useState('');

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(execution.transcript ?? '');
      setNote(t('calls_transcriptCopied'));
    } catch {
      setNote(t('calls_transcriptNotCopied'));
    }
  };

  const download = () => {
    const blob = new Blob([JSON.stringify(execution, null, 2)], { type: 'application/json' });
    const url = URL.createObjectURL(blob);
    const link = document.createElement('a');
    link.href = url;
    link.download = safeFileName(`execution-${execution.id}.json`);
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
    setNote(t('calls_savedAsJson'));
  };

  return (
    <div class="result-actions">
      <div class="actions">
        <button type="button" class="secondary" onClick={copy} disabled={!execution.transcript}>
          {t('calls_copyTranscript')}
        </button>
        <button type="button" class="secondary" onClick={download}>
          {t('calls_downloadJson')}
        </button>
        <SaveAsTestCase executionId={execution.id} />
      </div>
      <StatusMessage>{note}</StatusMessage>
    </div>
  );
}

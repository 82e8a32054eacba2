import { useState } from 'preact/hooks';
import type { Execution } from '../../lib/api/schemas/execution';
import { safeFileName } from '../../lib/ui/format';
import { StatusMessage } from '../shared/Messages';
import { SaveAsTestCase } from '../plans/SaveAsTestCase';

/** "Copy transcript" and "Download JSON" of an execution. */
export function ResultActions({ execution }: { execution: Execution }) {
  const [note, setNote] = useState('');

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(execution.transcript ?? '');
      setNote('Transcript copied.');
    } catch {
      setNote('The transcript could not be copied; select its text and copy it by hand.');
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
    setNote('Execution saved as JSON.');
  };

  return (
    <div class="result-actions">
      <div class="actions">
        <button type="button" class="secondary" onClick={copy} disabled={!execution.transcript}>
          Copy transcript
        </button>
        <button type="button" class="secondary" onClick={download}>
          Download JSON
        </button>
        <SaveAsTestCase executionId={execution.id} />
      </div>
      <StatusMessage>{note}</StatusMessage>
    </div>
  );
}

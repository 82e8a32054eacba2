import { useState } from 'preact/hooks';
import { t } from '../../lib/i18n';
import { ErrorMessage } from '../shared/Messages';

interface RecordingPlayerProps {
  url: string | null | undefined;
  /** Fetch the execution again (a fresh presigned link). */
  onReload?: () => void;
  reloading?: boolean;
}

/** The call's recording. Its link is presigned and expires: when it cannot play, say why and offer a reload. */
export function RecordingPlayer({ url, onReload, reloading = false }: RecordingPlayerProps) {
  // Remembered per link: a fresh link starts out playable.
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  const failed = !!url && failedUrl === url;
  if (!url) {
    return (
      <section class="recording" aria-labelledby="recording-title">
        <h3 id="recording-title">{t('recording_title')}</h3>
        <p class="hint">{t('recording_none')}</p>
      </section>
    );
  }
  return (
    <section class="recording" aria-labelledby="recording-title">
      <h3 id="recording-title">{t('recording_title')}</h3>
      <audio controls preload="none" src={url} aria-label={t('recording_label')} onError={() => setFailedUrl(url)} />
      <p>
        <a href={url} download target="_blank" rel="noopener noreferrer">
          {t('recording_download')}
        </a>
      </p>
      {failed ? (
        <>
          <ErrorMessage>
            {t('recording_expired')}
          </ErrorMessage>
          {onReload ? (
            <button type="button" class="secondary" onClick={onReload} disabled={reloading}>
              {t('recording_reload')}
            </button>
          ) : null}
        </>
      ) : null}
    </section>
  );
}

import { useState } from 'preact/hooks';
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
        <h3 id="recording-title">Recording</h3>
        <p class="hint">No recording for this call.</p>
      </section>
    );
  }
  return (
    <section class="recording" aria-labelledby="recording-title">
      <h3 id="recording-title">Recording</h3>
      <audio controls preload="none" src={url} aria-label="Call recording" onError={() => setFailedUrl(url)} />
      <p>
        <a href={url} download target="_blank" rel="noopener noreferrer">
          Download recording
        </a>
      </p>
      {failed ? (
        <>
          <ErrorMessage>
            The recording link has expired or cannot be played; links are temporary. Reload the call to get a fresh link.
          </ErrorMessage>
          {onReload ? (
            <button type="button" class="secondary" onClick={onReload} disabled={reloading}>
              Reload call
            </button>
          ) : null}
        </>
      ) : null}
    </section>
  );
}

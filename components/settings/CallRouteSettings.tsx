/**
 * Options → How calls are placed: the "Start calls now" setting. Off (the default), every call goes
 * out as a single-call batch scheduled at the earliest allowed time (every service has batches).
 * On, a call is placed at once with `POST /call` where the service offers it; where it does not,
 * the call falls back to the batch (and the extension remembers that for the service).
 * Saved at once through `settings/call-route`; the background owns the settings.
 */
import { useEffect, useState } from 'preact/hooks';
import { send } from '../../lib/ui/send';
import { ErrorMessage, StatusMessage } from '../shared/Messages';

export function CallRouteSettings() {
  const [startNow, setStartNow] = useState<boolean | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState('');

  useEffect(() => {
    void send({ type: 'settings/get' }).then((reply) => {
      if (reply.ok) setStartNow(reply.data.startCallsNow);
      else setError(reply.error.message);
    });
  }, []);

  const change = async (wanted: boolean) => {
    setStatus('');
    setError(null);
    setBusy(true);
    const reply = await send({ type: 'settings/call-route', startCallsNow: wanted });
    setBusy(false);
    // On a refusal the box shows what is really saved, and the error says why.
    if (!reply.ok) return setError(`The setting was not saved: ${reply.error.message}`);
    setStartNow(reply.data.startCallsNow);
    setStatus(
      reply.data.startCallsNow
        ? 'Calls will start at once where the service offers it.'
        : 'Calls will go out as single-call batches.',
    );
  };

  return (
    <section aria-labelledby="call-route-title">
      <h2 id="call-route-title">How calls are placed</h2>
      <p class="hint" id="call-route-hint">
        By default each call goes out as a single-call batch, which starts at the earliest time the service allows (about
        two minutes ahead, or later). Services that offer immediate calls can start a call at once instead; where a service
        does not, the call still goes out as a batch.
      </p>
      {startNow === null && !error ? <p class="hint">Loading…</p> : null}
      <div class="row">
        <input
          type="checkbox"
          id="call-route-start-now"
          aria-describedby="call-route-hint"
          checked={startNow ?? false}
          disabled={startNow === null || busy}
          onChange={(e) => void change((e.currentTarget as HTMLInputElement).checked)}
        />
        <label for="call-route-start-now">Start calls now where the service offers it</label>
      </div>
      <StatusMessage>{status}</StatusMessage>
      <ErrorMessage>{error}</ErrorMessage>
    </section>
  );
}

// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { CallStatusTimeline } from '../../../components/calls/CallStatusTimeline';
import { CompactCallView, FullCallView } from '../../../components/calls/CallView';
import { ExtractedData } from '../../../components/calls/ExtractedData';
import { RecordingPlayer } from '../../../components/calls/RecordingPlayer';
import { Transcript } from '../../../components/calls/Transcript';
import { formatClock } from '../../../lib/ui/format';
import { callRecord, execution, fail, fakeBackground, ok, renderWithStore } from './helpers';

beforeEach(() => fakeBrowser.reset());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const T0 = Date.parse('2026-11-21T12:00:00Z');

describe('CallStatusTimeline', () => {
  it('shows observed times and marks statuses skipped between polls as not observed', () => {
    render(
      <CallStatusTimeline
        call={{
          status: 'in-progress',
          observed: [
            { status: 'scheduled', at: T0 },
            { status: 'ringing', at: T0 + 125_000 },
            { status: 'in-progress', at: T0 + 130_000 },
          ],
        }}
      />,
    );
    const items = within(screen.getByRole('list', { name: 'Call status timeline' })).getAllByRole('listitem');
    const text = items.map((li) => li.textContent);
    expect(text[0]).toContain('Scheduled');
    expect(text[0]).toContain(formatClock(T0, { seconds: true }));
    expect(text[1]).toBe('Queued not observed');
    expect(text[2]).toBe('Dialling not observed');
    expect(text[3]).toContain(formatClock(T0 + 125_000, { seconds: true }));
    expect(items[4]!.getAttribute('aria-current')).toBe('step');
    expect(text[6]).toBe('Completed ');
  });
});

describe('Transcript', () => {
  it('renders service text as text: markup shows as characters, no element is created', () => {
    const { container } = render(<Transcript text={'assistant: Hello\nuser: <img src=x onerror=alert(1)> hi'} />);
    expect(container.querySelector('img')).toBeNull();
    expect(screen.getByText('<img src=x onerror=alert(1)> hi')).toBeTruthy();
    const turns = screen.getAllByRole('listitem');
    expect(turns).toHaveLength(2);
    expect(turns[0]!.textContent).toBe('AssistantHello');
    expect(turns[1]!.textContent).toContain('User');
  });
});

describe('ExtractedData', () => {
  it('shows a two-column table of fields and values', () => {
    render(<ExtractedData data={{ interested: true, budget: '5000', note: '<b>x</b>' }} />);
    const table = screen.getByRole('table');
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Field', 'Value']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.textContent)).toEqual(['interestedYes', 'budget5000', 'note<b>x</b>']);
    expect(table.querySelector('b')).toBeNull();
  });
  it('says when nothing was extracted', () => {
    render(<ExtractedData data={{}} />);
    expect(screen.getByText('No data was extracted.')).toBeTruthy();
  });
});

describe('RecordingPlayer', () => {
  it('explains an expired link when the audio fails and offers a reload', async () => {
    const onReload = vi.fn();
    const { container } = render(<RecordingPlayer url="https://rec.example.com/a.mp3?sig=old" onReload={onReload} />);
    const audio = container.querySelector('audio')!;
    expect(audio.getAttribute('src')).toBe('https://rec.example.com/a.mp3?sig=old');
    expect(screen.getByRole('link', { name: 'Download recording' }).getAttribute('href')).toBe('https://rec.example.com/a.mp3?sig=old');
    fireEvent.error(audio);
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The recording link has expired or cannot be played; links are temporary. Reload the call to get a fresh link.',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Reload call' }));
    expect(onReload).toHaveBeenCalled();
  });
});

describe('CompactCallView', () => {
  it('counts down to the expected start, showing the earliest and the 10-minute mark', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(T0 + 15_000);
    fakeBackground(() => ok(null));
    await renderWithStore(<CompactCallView call={callRecord()} />);
    const scheduled = Date.parse('2026-11-21T12:02:15Z');
    expect(screen.getByText(/Starts in/).textContent).toContain('2:00');
    expect(screen.getByText(/Starts in/).textContent).toContain(formatClock(scheduled, { seconds: true }));
    expect(screen.getByText(/next 10-minute mark/).textContent).toContain(formatClock(Date.parse('2026-11-21T12:10:00Z')));
    expect(screen.getByRole('button', { name: 'Stop call' })).toBeTruthy();
  });

  it('shows the dialling step, and a step failure with the service message and Retry', async () => {
    const { requests } = fakeBackground(() => ok(null));
    const { rerender } = await renderWithStore(<CompactCallView call={callRecord({ step: 'scheduling', status: null, observed: [], scheduledAt: null })} />);
    expect(screen.getByText('Scheduling…')).toBeTruthy();
    rerender(
      <CompactCallView
        call={callRecord({ step: 'scheduling', status: null, observed: [], scheduledAt: null, failure: { step: 'scheduling', message: 'scheduled_at must be at least 2 minutes ahead', status: 400, at: T0 } })}
      />,
    );
    expect(screen.getByRole('alert').textContent).toContain('Scheduling the batch failed: scheduled_at must be at least 2 minutes ahead');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    });
    await waitFor(() => expect(requests).toContainEqual({ type: 'call/retry', callId: 'call-1' }));
  });

  it('offers Stop from the first step: while the batch is being created, and while a Stop is on its way says so', async () => {
    const { requests } = fakeBackground(() => ok(null));
    const { rerender } = await renderWithStore(<CompactCallView call={callRecord({ step: 'creating-batch', batchId: null, status: null, observed: [], scheduledAt: null })} />);
    expect(screen.getByText('Creating batch…')).toBeTruthy();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Stop call' }));
    });
    await waitFor(() => expect(requests).toContainEqual({ type: 'call/stop', callId: 'call-1' }));
    rerender(<CompactCallView call={callRecord({ step: 'creating-batch', batchId: null, status: null, observed: [], scheduledAt: null, stopRequested: true })} />);
    expect(screen.getByText('Stopping…')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Stop call' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('shows a wait the service asked for: counted down up to a minute, beyond it the time it tries again', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(T0);
    fakeBackground(() => ok(null));
    const waiting = (askedMs: number) =>
      callRecord({ step: 'scheduling', status: null, observed: [], scheduledAt: null, lastError: 'Too many requests', serviceWait: { askedMs, until: T0 + askedMs } });
    const { rerender } = await renderWithStore(<CompactCallView call={waiting(45_000)} />);
    expect(screen.getByRole('status').textContent).toBe('The service asked us to wait 45 s (Too many requests); trying again in 0:45.');
    rerender(<CompactCallView call={waiting(600_000)} />);
    expect(screen.getByRole('status').textContent).toBe(
      `The service asked us to wait 10 min 00 s (Too many requests); the call tries again at ${formatClock(T0 + 600_000)}.`,
    );
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says tracking is paused with the last error and offers Retry', async () => {
    fakeBackground(() => ok(null));
    await renderWithStore(<CompactCallView call={callRecord({ trackingPaused: true, lastError: 'The service could not be reached.', failingSince: T0 })} />);
    expect(screen.getByRole('alert').textContent).toContain('Tracking paused');
    expect(screen.getByRole('alert').textContent).toContain('The service could not be reached.');
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
  });

  it('a call paused for want of its service’s key says so, not that the service was unreachable', async () => {
    fakeBackground(() => ok(null));
    const lastError = 'This call needs the key for api.a.example: it was placed there, and no key is saved for https://api.a.example.';
    await renderWithStore(<CompactCallView call={callRecord({ trackingPaused: true, lastError, failingSince: null })} />);
    expect(screen.getByRole('alert').textContent).toContain(`Tracking paused. ${lastError}`);
    expect(screen.getByRole('alert').textContent).not.toContain('could not be reached');
  });

  it('sends call/stop and shows a refusal', async () => {
    const { requests } = fakeBackground(() => fail('Batch is not queued or running', 404));
    await renderWithStore(<CompactCallView call={callRecord()} />);
    fireEvent.click(screen.getByRole('button', { name: 'Stop call' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Batch is not queued or running');
    expect(requests).toContainEqual({ type: 'call/stop', callId: 'call-1' });
  });

  it('says nobody answered when a completed call lasted zero seconds, and hides Stop call', async () => {
    fakeBackground(() => ok(null));
    const finished = callRecord({
      step: 'finished',
      status: 'completed',
      observed: [
        { status: 'scheduled', at: T0 },
        { status: 'completed', at: T0 + 700_000 },
      ],
      execution: execution({ conversation_duration: 0, conversation_time: 0 }),
    });
    await renderWithStore(<CompactCallView call={finished} onOpenDetails={() => {}} />);
    expect(screen.getByText(/Nobody answered/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Stop call' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Open details' })).toBeTruthy();
  });

  it('explains other terminal statuses in plain words', async () => {
    fakeBackground(() => ok(null));
    const call = callRecord({ step: 'finished', status: 'busy', execution: execution({ status: 'busy', conversation_duration: 0, error_message: 'User busy' }) });
    await renderWithStore(<CompactCallView call={call} />);
    expect(screen.getByText(/The line was busy/)).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('User busy');
  });
});

describe('FullCallView', () => {
  const finished = () =>
    callRecord({
      step: 'finished',
      status: 'completed',
      observed: [
        { status: 'scheduled', at: T0 },
        { status: 'completed', at: T0 + 700_000 },
      ],
      execution: execution(),
    });

  it('shows transcript, extracted data, duration, cost and telephony details', async () => {
    fakeBackground(() => ok(null));
    await renderWithStore(<FullCallView call={finished()} />);
    expect(screen.getByText('Hello, this is Sam.')).toBeTruthy();
    expect(screen.getByRole('cell', { name: '5000' })).toBeTruthy();
    expect(screen.getByText(/42 s/)).toBeTruthy();
    expect(screen.getByText('$0.13')).toBeTruthy();
    expect(screen.getByText('Call recipient hung up')).toBeTruthy();
    expect(screen.getByText('CA123')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copy transcript' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Download JSON' })).toBeTruthy();
  });

  it('reloads the call for a fresh recording link after the audio fails', async () => {
    const { requests } = fakeBackground((r) =>
      r.type === 'execution/get' ? ok(execution({ telephony_data: { ...execution().telephony_data!, recording_url: 'https://recordings.example.com/r1.mp3?sig=new' } })) : ok(null),
    );
    const { container } = await renderWithStore(<FullCallView call={finished()} />);
    fireEvent.error(container.querySelector('audio')!);
    fireEvent.click(await screen.findByRole('button', { name: 'Reload call' }));
    await waitFor(() => expect(container.querySelector('audio')!.getAttribute('src')).toContain('sig=new'));
    expect(requests).toContainEqual({ type: 'execution/get', executionId: 'exec-1' });
    expect(screen.queryByText(/has expired/)).toBeNull();
  });

  it('loads the execution log on demand', async () => {
    fakeBackground((r) =>
      r.type === 'execution/log'
        ? ok({ data: [{ created_at: '2026-11-21T12:10:01+00:00', type: 'request', component: 'llm', provider: 'openai', data: 'hello <script>x</script>' }] })
        : ok(null),
    );
    const { container } = await renderWithStore(<FullCallView call={finished()} />);
    fireEvent.click(screen.getByRole('button', { name: 'Load log' }));
    expect(await screen.findByText('hello <script>x</script>')).toBeTruthy();
    expect(screen.getByText('llm (openai)')).toBeTruthy();
    expect(container.querySelector('script')).toBeNull();
  });

  it('copies the transcript to the clipboard', async () => {
    fakeBackground(() => ok(null));
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await renderWithStore(<FullCallView call={finished()} />);
    fireEvent.click(screen.getByRole('button', { name: 'Copy transcript' }));
    expect(await screen.findByText('Transcript copied.')).toBeTruthy();
    expect(writeText).toHaveBeenCalledWith('assistant: Hello, this is Sam.\nuser: Hi Sam.');
  });
});

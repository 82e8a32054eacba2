import { useEffect, useMemo, useState } from 'preact/hooks';
import { t } from '../../lib/i18n';
import { usePhoneParser } from '../../lib/ui/phone';
import { send } from '../../lib/ui/send';
import { activeCallTo } from '../../lib/calls/latest';
import { useStore } from '../../lib/ui/store';
import { checkVariables, rowsFromVariables, type VariableRow } from '../../lib/ui/variables';
import { AgentPicker, agentLabel, useAgents } from '../agents/AgentPicker';
import { DialConfirmation, type RequestOrigin } from './DialConfirmation';
import { FromNumberPicker } from './FromNumberPicker';
import { ErrorMessage } from '../shared/Messages';
import { PhoneNumberInput } from './PhoneNumberInput';
import { VariablesEditor } from './VariablesEditor';

export interface DialPrefill {
  agentId?: string | null;
  toNumber?: string | null;
  fromNumber?: string | null;
  variables?: Record<string, string> | null;
}

interface DialFormProps {
  prefill?: DialPrefill;
  /**
   * Open the confirmation as soon as the prefilled number and agent are valid (popup.html?dial=…).
   * Such a confirmation was not asked for in this form, so it is guarded (see DialConfirmation).
   */
  confirmAtOnce?: boolean;
  /** Who asked, shown in the confirmation. */
  requestedBy?: RequestOrigin | null;
  onDialled(callId: string): void;
  /** Ask for a fresh agent list on mount. */
  refreshAgents?: boolean;
}

/** Agent, number, from-number and variables, then a confirmation, then `call/dial`. */
export function DialForm({ prefill = {}, confirmAtOnce = false, requestedBy = null, onDialled, refreshAgents = true }: DialFormProps) {
  const store = useStore();
  const { agents } = useAgents();
  const { parse, failed: parserFailed, version: parserVersion } = usePhoneParser();
  const [agentId, setAgentId] = useState<string>(() => {
    if (prefill.agentId) return prefill.agentId;
    const last = store.calls.value[0]?.agentId;
    if (last && agents.some((a) => a.id === last)) return last;
    return agents.length === 1 ? agents[0]!.id : '';
  });
  const [phoneText, setPhoneText] = useState(prefill.toNumber ?? '');
  const [fromNumber, setFromNumber] = useState<string | null>(prefill.fromNumber ?? null);
  const [rows, setRows] = useState<VariableRow[]>(() => rowsFromVariables(prefill.variables));
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [attempted, setAttempted] = useState(false);
  /**
   * The dial's id, chosen at the first Confirm and kept while the form says the same thing: pressing
   * Confirm again (a double submit, a retry after a lost answer) is the same call, never a second one.
   */
  const [dialId, setDialId] = useState<string | null>(null);
  /** The background said a call to this number is already in progress (another window placed it). */
  const [refusedActive, setRefusedActive] = useState(false);

  const country = store.settings.value.defaultCountry;
  const parsed = useMemo(() => (phoneText.trim() ? parse(phoneText, country) : null), [parse, parserVersion, phoneText, country]);
  const variablesCheck = checkVariables(rows);
  const agent = agents.find((a) => a.id === agentId);
  const ready = !!agentId && parsed?.ok === true && variablesCheck.ok;
  const e164 = parsed?.ok ? parsed.e164 : null;
  const active = e164 ? activeCallTo(store.calls.value, e164) : undefined;

  // Another number, agent, from-number or variables is another call.
  const intent = JSON.stringify([agentId, e164, fromNumber, variablesCheck.ok ? variablesCheck.variables : null]);
  useEffect(() => {
    setDialId(null);
    setRefusedActive(false);
  }, [intent]);

  // The list may arrive after the form: a single agent is the obvious choice.
  useEffect(() => {
    if (!agentId && agents.length === 1) setAgentId(agents[0]!.id);
  }, [agents.length]);

  const [autoOpened, setAutoOpened] = useState(false);
  /** The confirmation on screen is the one opened by the request, not by this form's Call. */
  const [fromRequest, setFromRequest] = useState(false);
  useEffect(() => {
    if (confirmAtOnce && !autoOpened && parsed) {
      setAutoOpened(true);
      if (ready) {
        setFromRequest(true);
        setConfirming(true);
      } else setAttempted(true);
    }
  }, [confirmAtOnce, autoOpened, parsed, ready]);

  const reasonDisabled = !agentId
    ? t('calls_reasonChooseAgent')
    : !phoneText.trim()
      ? t('calls_reasonEnterNumber')
      : parserFailed && !parsed
        ? t('calls_reasonParserFailed')
        : !parsed
          ? t('calls_reasonChecking')
          : !parsed.ok
            ? t('calls_reasonFixNumber')
            : !variablesCheck.ok
              ? t('calls_reasonFixVariables')
              : '';

  const confirm = async () => {
    if (!parsed?.ok || !variablesCheck.ok || !agentId) return;
    setBusy(true);
    setError(null);
    const id = dialId ?? crypto.randomUUID();
    setDialId(id);
    const asked = !!active || refusedActive;
    const reply = await send({
      type: 'call/dial',
      dialId: id,
      ...(asked ? { again: true } : {}),
      agentId,
      toNumber: parsed.e164,
      fromNumber,
      variables: variablesCheck.variables,
    });
    setBusy(false);
    if (!reply.ok && reply.error.kind === 'active-call') {
      // Placed from another window a moment ago: ask here, in the confirmation, before calling again.
      setRefusedActive(true);
      return;
    }
    setConfirming(false);
    if (!reply.ok) {
      setError(t('calls_notPlaced', reply.error.message));
      return;
    }
    setDialId(null);
    onDialled(reply.data.callId);
  };

  return (
    <div class="dial">
      <form
        class="dial-form"
        hidden={confirming}
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          setAttempted(true);
          if (ready) {
            setError(null);
            setFromRequest(false);
            setConfirming(true);
          }
        }}
      >
        <AgentPicker value={agentId} onChange={setAgentId} refreshOnMount={refreshAgents} />
        <PhoneNumberInput value={phoneText} onInput={setPhoneText} parsed={parsed} defaultCountry={country} showError={attempted} />
        <FromNumberPicker value={fromNumber} onChange={setFromNumber} />
        <VariablesEditor rows={rows} onChange={setRows} errors={variablesCheck.ok ? [] : variablesCheck.errors} />
        <ErrorMessage>{error}</ErrorMessage>
        <div class="actions">
          <button type="submit" class="primary" disabled={!ready} aria-describedby="call-disabled-reason">
            {t('calls_call')}
          </button>
          <span class="hint" id="call-disabled-reason">
            {reasonDisabled}
          </span>
        </div>
      </form>
      {confirming && parsed?.ok && variablesCheck.ok ? (
        <DialConfirmation
          agentName={agent ? agentLabel(agent, agents) : agentId}
          number={parsed}
          fromNumber={fromNumber}
          variables={variablesCheck.variables}
          activeCall={!!active || refusedActive}
          busy={busy}
          guarded={fromRequest}
          requestedBy={fromRequest ? requestedBy : null}
          startNow={store.settings.value.startCallsNow}
          onConfirm={confirm}
          onCancel={() => setConfirming(false)}
        />
      ) : null}
    </div>
  );
}

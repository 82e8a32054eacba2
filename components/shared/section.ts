/** What the side panel gives each of its sections. */
export interface SectionProps {
  /** The agent the sections are about: shared, so moving between sections keeps it ('' when none is chosen). */
  agentId: string;
  onAgentChange(agentId: string): void;
  /** Shows one execution of the service in the call view (a Back button returns to the section). */
  openExecution(executionId: string): void;
  /** Shows a call of the history in the Calls section. */
  openCall(callId: string): void;
}

import type { SectionProps } from '../shared/section';

/** The side panel's Agents section. Not built yet: the section says so rather than hiding. */
export function AgentsSection(_props: SectionProps) {
  return <p class="hint">This section is being built.</p>;
}

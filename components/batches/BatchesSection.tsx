import type { SectionProps } from '../shared/section';

/** The side panel's Batches section. Not built yet: the section says so rather than hiding. */
export function BatchesSection(_props: SectionProps) {
  return <p class="hint">This section is being built.</p>;
}

import type { SectionProps } from '../shared/section';

/** The side panel's Knowledgebases section. Not built yet: the section says so rather than hiding. */
export function KnowledgebasesSection(_props: SectionProps) {
  return <p class="hint">This section is being built.</p>;
}

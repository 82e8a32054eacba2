import type { SectionProps } from '../shared/section';

/** The side panel's Account section. Not built yet: the section says so rather than hiding. */
export function AccountSection(_props: SectionProps) {
  return <p class="hint">This section is being built.</p>;
}

/** The accessibility check every screen passes: no serious or critical axe-core violations. */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

export async function expectAxeClean(page: Page, options: { include?: string; screen?: string } = {}): Promise<void> {
  let builder = new AxeBuilder({ page });
  if (options.include) builder = builder.include(options.include);
  const results = await builder.analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const where = options.screen ? `${options.screen}: ` : '';
  expect(bad.map((v) => `${where}${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual([]);
}

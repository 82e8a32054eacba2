import { browser } from '../../lib/browser';
import { t } from '../../lib/i18n';

/**
 * "Save as test case" on a finished call: opens the Test plans section with the call's execution, where
 * its number, variables and extracted data become a case of a plan for its agent, to adjust and save.
 * In the side panel the page itself moves there; elsewhere (the popup) the panel page opens in a tab.
 */
export function SaveAsTestCase({ executionId }: { executionId: string }) {
  const open = () => {
    const url = `${browser.runtime.getURL('/sidepanel.html')}?section=plans&fromExecution=${encodeURIComponent(executionId)}`;
    if (location.pathname.endsWith('/sidepanel.html')) location.assign(url);
    else void browser.tabs.create({ url });
  };
  return (
    <button type="button" class="secondary" onClick={open}>
      {t('plans_saveAsTestCase')}
    </button>
  );
}

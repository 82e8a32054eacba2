import { KeptAside } from '../../components/shared/KeptAside';
import { CallRouteSettings } from '../../components/settings/CallRouteSettings';
import { SetupForm } from '../../components/settings/SetupForm';
import { SitesSettings } from '../../components/settings/SitesSettings';
import { t } from '../../lib/i18n';
import { WholeWords } from '../../components/shared/WholeWords';

export function OptionsApp() {
  return (
    <main class="options">
      <h1>
        <WholeWords text={t('options_title')} />
      </h1>
      <KeptAside source="settings" what="settings" />
      <SetupForm />
      <SitesSettings />
      <CallRouteSettings />
    </main>
  );
}

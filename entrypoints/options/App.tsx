import { KeptAside } from '../../components/shared/KeptAside';
import { CallRouteSettings } from '../../components/settings/CallRouteSettings';
import { SetupForm } from '../../components/settings/SetupForm';
import { SitesSettings } from '../../components/settings/SitesSettings';

export function OptionsApp() {
  return (
    <main class="options">
      <h1>Voice Agent Click-to-Call settings</h1>
      <KeptAside source="settings" what="settings" />
      <SetupForm />
      <SitesSettings />
      <CallRouteSettings />
    </main>
  );
}

import { KeptAside } from '../../components/KeptAside';
import { SetupForm } from '../../components/SetupForm';
import { SitesSettings } from '../../components/SitesSettings';

export function OptionsApp() {
  return (
    <main class="options">
      <h1>Voice Agent Click-to-Call settings</h1>
      <KeptAside source="settings" what="settings" />
      <SetupForm />
      <SitesSettings />
    </main>
  );
}

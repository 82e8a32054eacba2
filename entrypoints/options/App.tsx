import { SetupForm } from '../../components/SetupForm';

export function OptionsApp() {
  return (
    <main class="options">
      <h1>Voice Agent Click-to-Call settings</h1>
      <SetupForm />
      <section aria-labelledby="sites-title">
        <h2 id="sites-title">Sites</h2>
        <p class="hint">Choosing the sites where the extension offers to call numbers it finds is coming in a later version.</p>
      </section>
    </main>
  );
}

import { render } from 'preact';
import '../../assets/ui.css';
import { markDocumentLanguage } from '../../lib/i18n';
import { createUiStore, StoreContext } from '../../lib/ui/store';
import { OptionsApp } from './App';

markDocumentLanguage(document);
render(
  <StoreContext.Provider value={createUiStore()}>
    <OptionsApp />
  </StoreContext.Provider>,
  document.getElementById('app')!,
);

import { render } from 'preact';
import '../../assets/ui.css';
import { markDocumentLanguage } from '../../lib/i18n';
import { createUiStore, StoreContext } from '../../lib/ui/store';
import { SidePanelApp } from './App';

markDocumentLanguage(document);
render(
  <StoreContext.Provider value={createUiStore()}>
    <SidePanelApp />
  </StoreContext.Provider>,
  document.getElementById('app')!,
);

import { render } from 'preact';
import '../../assets/ui.css';
import { createUiStore, StoreContext } from '../../lib/ui/store';
import { OptionsApp } from './App';

render(
  <StoreContext.Provider value={createUiStore()}>
    <OptionsApp />
  </StoreContext.Provider>,
  document.getElementById('app')!,
);

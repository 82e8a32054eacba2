import { render } from 'preact';
import '../../assets/ui.css';
import { createUiStore, StoreContext } from '../../lib/ui/store';
import { PopupApp } from './App';

render(
  <StoreContext.Provider value={createUiStore()}>
    <PopupApp />
  </StoreContext.Provider>,
  document.getElementById('app')!,
);

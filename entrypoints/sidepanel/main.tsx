import { render } from 'preact';
import '../../assets/ui.css';
import { createUiStore, StoreContext } from '../../lib/ui/store';
import { SidePanelApp } from './App';

render(
  <StoreContext.Provider value={createUiStore()}>
    <SidePanelApp />
  </StoreContext.Provider>,
  document.getElementById('app')!,
);

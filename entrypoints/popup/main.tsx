import { render } from 'preact';

render(<main><h1>Voice Agent Click-to-Call</h1><p>popup</p></main>, document.getElementById('app')!);

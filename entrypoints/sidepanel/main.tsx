import { render } from 'preact';

render(<main><h1>WebMCP Agent</h1></main>, document.getElementById('app')!);

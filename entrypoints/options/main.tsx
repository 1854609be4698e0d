import { render } from 'preact';

render(<main><h1>WebMCP Agent settings</h1></main>, document.getElementById('app')!);

import { render } from 'preact';
render(<p>Troupe</p>, document.getElementById('app') as HTMLElement);

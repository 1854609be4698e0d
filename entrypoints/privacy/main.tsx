import { render } from 'preact';
import { PrivacyPolicy } from '@/components/options/privacy-policy';
import '@/components/options/options.css';
import policy from '@/docs/privacy.md?raw';

// The options page links here: the same text as docs/privacy.md, which the stores' listings link to.
render(<PrivacyPolicy markdown={policy} />, document.getElementById('app')!);

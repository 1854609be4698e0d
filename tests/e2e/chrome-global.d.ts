// Code passed to serviceWorker.evaluate runs in the extension's service worker, where `chrome` is a global.
import type { Browser } from '@wxt-dev/browser';

declare global {
  const chrome: typeof Browser;
}

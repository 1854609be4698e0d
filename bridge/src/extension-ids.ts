/**
 * Who the native-messaging host answers: the WebMCP Agent extension, by the ids the browsers give it.
 *
 * Chrome names an unpacked extension after its path unless its manifest carries a `key`; the build's manifest carries
 * CHROME_EXTENSION_KEY (wxt.config.ts), so every build loaded anywhere is CHROME_EXTENSION_ID, and the host manifest
 * can name it. Only this public key is kept: an unpacked extension needs no private key. The store builds carry no
 * key (scripts/release.ts): each store gives its copy an id of its own, listed below once it is published; until
 * then the installer takes it with `--extension-id`. Firefox uses the manifest's gecko id, the same from
 * addons.mozilla.org as from a clone.
 */

/** The public half (SubjectPublicKeyInfo, DER, base64) of the key pair made once for this extension. */
export const CHROME_EXTENSION_KEY =
  'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEApgbNyetZcAiZWVWuSWgS70Anw/6DJYvfRTVppwRX32eG8CqrJ+AiMd4QGGZn4CtbGav2lgsjwmChxUQpFtoYQFoH/NHEJHHdQf/QwwREJGwwHkp7eWf/5inUA9Hg7NeC78R10OsP7b9/2yxiv692XrFC+NB3BwkCF63o6ntEIuqdvZTyn2yHsospOGfRWLQY34FKtW5ZhJCfuL5OMH4eKOIVhhBEiPv85JrJ4JVtuTlsKv4S34sQZrt/tdD18xtcXAiXP3tfEqidY2I0L2d4rbgKZpXApT+E/lnFZfPGQbVQJdXjoj6rsw5B12adMlkVPje4xMFPLAH0bw4K/0Fe3QIDAQAB';

/** The id Chrome derives from CHROME_EXTENSION_KEY (extension-ids.test.ts computes it). */
export const CHROME_EXTENSION_ID = 'ndhgakbiimnhngehomphknhkdefapfod';

/** The Firefox build's `browser_specific_settings.gecko.id`. */
export const FIREFOX_EXTENSION_ID = 'webmcp-agent@webmcp-agent.dev';

/** The native-messaging host's name: what the extension's runtime.connectNative asks for. */
export const NATIVE_HOST_NAME = 'dev.webmcp_agent.bridge';

/**
 * The ids the stores gave their copies, which the installer allows beside the development ids. Filled when the
 * extension is published: the Chrome Web Store assigns the id at the first upload (the item's page shows it), and
 * Edge Add-ons gives its own. Until an id is here, a person who installed from a store passes it to
 * `webmcp-agent-bridge install --extension-id <id>` (chrome://extensions shows it).
 */
export const STORE_EXTENSION_IDS: { readonly chromeWebStore?: string; readonly edgeAddons?: string } = {};

/** Every Chrome-family id the host manifest names by default: the development build's and each published store copy's. */
export function knownChromeExtensionIds(): string[] {
  return [CHROME_EXTENSION_ID, ...Object.values(STORE_EXTENSION_IDS).filter((id): id is string => typeof id === 'string' && id !== '')];
}

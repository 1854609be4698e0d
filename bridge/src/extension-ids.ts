/**
 * Who the native-messaging host answers: the WebMCP Agent extension, by the ids the browsers give it.
 *
 * Chrome names an unpacked extension after its path unless its manifest carries a `key`; the build's manifest carries
 * CHROME_EXTENSION_KEY (wxt.config.ts), so every build loaded anywhere is CHROME_EXTENSION_ID, and the host manifest
 * can name it. Only this public key is kept: an unpacked extension needs no private key. A store listing gets its own
 * id; the installer takes more ids with `--extension-id`. Firefox uses the manifest's gecko id.
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

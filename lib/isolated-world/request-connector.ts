import type { FrameToBackgroundMessage } from '../messaging/router-messages';

/** The slice of the extension API a stub needs, passed in (`browser` on Firefox, `chrome` on Chrome). */
interface RuntimeApi {
  runtime: { sendMessage(message: unknown): Promise<unknown> };
}

/**
 * What a stub sends at the first sign of WebMCP in its frame: the background then loads the bridge into exactly
 * this document (`frame/load`, lib/background/create-tool-router.ts). Nothing to wait for, and nothing to report
 * if the background is gone.
 */
export function requestConnector(api: RuntimeApi, native: boolean): void {
  const message: FrameToBackgroundMessage = { type: 'frame/load', native };
  void api.runtime.sendMessage(message).catch(() => {});
}

/** The slice of chrome.offscreen and chrome.runtime this needs, passed in so it runs anywhere. */
interface OffscreenApi {
  hasDocument: () => Promise<boolean>;
  createDocument: (params: { url: string; reasons: string[]; justification: string }) => Promise<void>;
}

let creating: Promise<void> | undefined;

/**
 * Make sure the agent host (Chrome's offscreen document) exists. Safe to call from many places at once:
 * concurrent callers share one creation, and a document that already exists is left alone.
 */
export async function ensureOffscreenDocument(api: OffscreenApi, url: string): Promise<void> {
  if (await api.hasDocument()) return;
  creating ??= api
    .createDocument({
      url,
      reasons: ['WORKERS'],
      justification: 'Runs the agent loop and the on-device model while the side panel is closed.',
    })
    .catch((error: unknown) => {
      // Another context won the race: a second document is refused, which is what we wanted anyway.
      if (!String(error).includes('single offscreen')) throw error;
    })
    .finally(() => {
      creating = undefined;
    });
  return creating;
}

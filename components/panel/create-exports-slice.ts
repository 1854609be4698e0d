import type { ReadonlySignal } from '@preact/signals';
import type { AgentClient } from '../../lib/messaging/agent-client';
import type { TranscriptFormat } from '../../lib/messaging/agent-messages';
import type { TabLink } from './create-tab-slice';

/** What leaves the panel passes through the host, which alone holds the key. */
export interface ExportsSlice {
  /** The conversation as Markdown or JSON, from the host (which redacts the key and secret fields). */
  exportTranscript(format: TranscriptFormat): Promise<{ text: string; fileName: string }>;
  /** `value` with the saved API key replaced, by the host (the panel never holds the key): for exports built here. */
  redact<T>(value: T): Promise<T>;
}

/**
 * What an export or redaction asked of the host fails with when the connection drops before the host answered (the
 * host restarted, the extension updated): the host that comes back knows nothing of the request.
 */
export { HOST_LEFT_UNANSWERED } from '../../lib/messaging/agent-messages';

/**
 * Creates the exports slice: each export and redaction is an ask on the client's request line, answered once; one
 * still pending when the connection drops fails with HOST_LEFT_UNANSWERED (one asked while the host was away waits
 * in the client and goes out once it answers, so it is not failed).
 */
export function createExportsSlice(
  client: AgentClient,
  tabs: Pick<TabLink, 'tabId'>,
  secretFields: ReadonlySignal<Record<string, string[]>>,
): ExportsSlice {
  return {
    exportTranscript(format) {
      const id = tabs.tabId.value;
      if (id === undefined) return Promise.reject(new Error('The panel follows no tab.'));
      return client.ask('panel/export-transcript', { tabId: id, format, secretFields: secretFields.value });
    },
    async redact(value) {
      return (await client.ask('panel/redact', { value })).value as typeof value;
    },
  };
}

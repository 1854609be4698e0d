import type { ReadonlySignal } from '@preact/signals';
import type { AgentClient } from '../../lib/messaging/agent-client';
import type { HostEvent, TranscriptFormat } from '../../lib/messaging/agent-messages';
import type { TabLink } from './create-tab-slice';

/** What leaves the panel passes through the host, which alone holds the key. */
export interface ExportsSlice {
  /** The conversation as Markdown or JSON, from the host (which redacts the key and secret fields). */
  exportTranscript(format: TranscriptFormat): Promise<{ text: string; fileName: string }>;
  /** `value` with the saved API key replaced, by the host (the panel never holds the key): for exports built here. */
  redact<T>(value: T): Promise<T>;
}

/** Creates the exports slice; `receive` hands the host's answers to the requests waiting for them. */
export function createExportsSlice(
  client: AgentClient,
  tabs: Pick<TabLink, 'tabId'>,
  secretFields: ReadonlySignal<Record<string, string[]>>,
  nextRequestId: () => string,
): ExportsSlice & { receive(event: HostEvent): void } {
  const transcripts = new Map<string, (value: { text: string; fileName: string }) => void>();
  const redactions = new Map<string, (value: unknown) => void>();
  return {
    receive(event) {
      if (event.type === 'panel/transcript') {
        transcripts.get(event.requestId)?.({ text: event.text, fileName: event.fileName });
        transcripts.delete(event.requestId);
      } else if (event.type === 'panel/redacted') {
        redactions.get(event.requestId)?.(event.value);
        redactions.delete(event.requestId);
      }
    },
    exportTranscript(format) {
      const id = tabs.tabId.value;
      if (id === undefined) return Promise.reject(new Error('The panel follows no tab.'));
      const requestId = nextRequestId();
      return new Promise((resolve) => {
        transcripts.set(requestId, resolve);
        client.send({ type: 'panel/export-transcript', tabId: id, requestId, format, secretFields: secretFields.value });
      });
    },
    redact(value) {
      const requestId = nextRequestId();
      return new Promise((resolve) => {
        redactions.set(requestId, resolve as (value: unknown) => void);
        client.send({ type: 'panel/redact', requestId, value });
      });
    },
  };
}

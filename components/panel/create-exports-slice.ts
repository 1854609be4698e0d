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

/**
 * What an export or redaction asked of the host fails with when the connection drops before the host answered (the
 * host restarted, the extension updated): the host that comes back knows nothing of the request.
 */
export const HOST_LEFT_UNANSWERED = 'The agent host restarted before it answered. Try again.';

interface Waiting {
  /** The answer it takes: a transcript's answer never settles a redaction. */
  answer: 'panel/transcript' | 'panel/redacted';
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/**
 * Creates the exports slice; `receive` hands the host's answers to the requests waiting for them. A request is
 * answered once, and every request still waiting when the connection drops fails with HOST_LEFT_UNANSWERED (one sent
 * while the host was away waits in the client and goes out once it answers, so it is not failed).
 */
export function createExportsSlice(
  client: AgentClient,
  tabs: Pick<TabLink, 'tabId'>,
  secretFields: ReadonlySignal<Record<string, string[]>>,
  nextRequestId: () => string,
): ExportsSlice & { receive(event: HostEvent): void } {
  const waiting = new Map<string, Waiting>();
  const settle = (answer: Waiting['answer'], requestId: string, value: unknown) => {
    const request = waiting.get(requestId);
    if (request?.answer !== answer) return;
    waiting.delete(requestId);
    request.resolve(value);
  };
  client.onConnectionChange((connected) => {
    if (connected) return;
    const dropped = [...waiting.values()];
    waiting.clear();
    for (const request of dropped) request.reject(new Error(HOST_LEFT_UNANSWERED));
  });
  const ask = <T>(answer: Waiting['answer'], send: (requestId: string) => void) => {
    const requestId = nextRequestId();
    return new Promise<T>((resolve, reject) => {
      waiting.set(requestId, { answer, resolve: resolve as (value: unknown) => void, reject });
      send(requestId);
    });
  };
  return {
    receive(event) {
      if (event.type === 'panel/transcript') settle(event.type, event.requestId, { text: event.text, fileName: event.fileName });
      else if (event.type === 'panel/redacted') settle(event.type, event.requestId, event.value);
    },
    exportTranscript(format) {
      const id = tabs.tabId.value;
      if (id === undefined) return Promise.reject(new Error('The panel follows no tab.'));
      return ask('panel/transcript', (requestId) =>
        client.send({ type: 'panel/export-transcript', tabId: id, requestId, format, secretFields: secretFields.value }),
      );
    },
    redact(value) {
      return ask('panel/redacted', (requestId) => client.send({ type: 'panel/redact', requestId, value }));
    },
  };
}

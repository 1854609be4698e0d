import { type ReadonlySignal, type Signal, signal } from '@preact/signals';
import type { CallRecord } from '../../lib/messaging/call-record';
import type { AgentClient } from '../../lib/messaging/agent-client';
import type { HostEvent } from '../../lib/messaging/agent-messages';
import { errorMessage } from '../../lib/shared/error-message';
import type { TabLink } from './create-tab-slice';

/** The tab's calls, the arguments the person marked secret, and runs by hand. */
export interface CallsSlice {
  /** The tab's calls, by the agent and by hand, oldest first. */
  timeline: ReadonlySignal<CallRecord[]>;
  /** Arguments the person marked secret, per tool: masked in exports. */
  secretFields: Signal<Record<string, string[]>>;
  /** Runs a tool by hand; returns the request id its timeline entry will carry. */
  runTool(name: string, input: Record<string, unknown>): string | undefined;
}

/**
 * Creates the calls slice; `receive` takes the host's timelines, `clear` forgets the old tab's. A run by hand is an
 * ask on the client's request line, answered when the call has ended; one the host could not finish (it restarted
 * meanwhile: HOST_LEFT_UNANSWERED) is said in the panel's notice, for the tab it was asked on.
 */
export function createCallsSlice(
  client: AgentClient,
  tabs: Pick<TabLink, 'tabId' | 'notice'>,
  nextRequestId: () => string,
): CallsSlice & { receive(event: HostEvent): void; clear(): void } {
  const timeline = signal<CallRecord[]>([]);
  const secretFields = signal<Record<string, string[]>>({});
  return {
    timeline,
    secretFields,
    receive(event) {
      if (event.type === 'panel/timeline' && event.tabId === tabs.tabId.value) timeline.value = event.entries;
    },
    clear() {
      timeline.value = [];
    },
    runTool(name, input) {
      const tabId = tabs.tabId.value;
      if (tabId === undefined) return undefined;
      const requestId = nextRequestId();
      client.ask('panel/run-tool', { tabId, requestId, name, input }).catch((error: unknown) => {
        if (tabs.tabId.value === tabId) tabs.notice.value = errorMessage(error);
      });
      return requestId;
    },
  };
}

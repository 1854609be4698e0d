import { effect } from '@preact/signals';
import type { EvalDriver } from '../../lib/evals/run-eval-cases';
import type { TabSnapshot } from '../../lib/messaging/agent-messages';
import type { InspectorStore } from './inspector-store';

/** What the eval driver needs from the browser: loading a URL in the tab, resolved once it has loaded. */
export interface EvalTabsPort {
  load(tabId: number, url: string): Promise<void>;
}

export interface EvalDriverOptions {
  /**
   * Answers every confirmation the agent asks for while a case runs (the headless runner, where nobody can click).
   * Without it the person answers in the panel.
   */
  autoConfirm?: 'allow-once' | 'deny';
}

/** How long a reloaded page gets to offer its first tool before the case runs anyway (it then fails on what is there). */
const TOOLS_WAIT_MS = 10_000;

/**
 * The eval runner's driver over the panel's own store: the same conversation, the same agent, the same page the
 * person sees. Each case reloads the tab, starts a seeded conversation, sends the message and waits for the run to
 * end, all by watching the host's snapshots.
 */
export function createEvalDriver(store: InspectorStore, tabs: EvalTabsPort, options: EvalDriverOptions = {}): EvalDriver {
  const tabId = () => {
    const id = store.tabId.value;
    if (id === undefined) throw new Error('The panel follows no tab.');
    return id;
  };
  return {
    async reset(url, signal) {
      await tabs.load(tabId(), url);
      // The host re-reads the page's tools on refresh and answers with a new snapshot.
      const before = store.tab.value;
      store.refresh();
      await until(store, (tab) => tab !== before && tab.tools.length > 0, signal, TOOLS_WAIT_MS).catch((error: unknown) => {
        if (signal.aborted) throw error;
      });
    },
    async run(seed, text, signal) {
      store.newChat(seed);
      await until(store, (tab) => !tab.running && tab.lastRun === undefined && tab.messages.length === seed.length, signal);
      const adapter = store.adapter.value;
      if (adapter?.status.state !== 'ready') throw new Error(`The agent cannot run: ${describeStatus(adapter?.status)}`);
      store.draft.value = text;
      if (!store.send()) throw new Error('The agent did not take the message.');
      const stop = () => store.stop();
      signal.addEventListener('abort', stop, { once: true });
      const answered = new Set<string>();
      const answer = options.autoConfirm;
      const stopAnswering = answer
        ? effect(() => {
            for (const waiting of store.tab.value?.confirmations ?? []) {
              // A desktop agent's question (lib/mcp-bridge) is the person's to answer, never the eval's.
              if (answered.has(waiting.id) || waiting.requester !== undefined) continue;
              answered.add(waiting.id);
              queueMicrotask(() => store.confirm(waiting.id, answer));
            }
          })
        : () => {};
      try {
        const end = await until(store, (tab) => tab.lastRun !== undefined && !tab.running && tab.messages.length > seed.length, signal);
        const lastRun = end.lastRun;
        return { messages: end.messages, reason: lastRun?.reason ?? 'stop', ...(lastRun?.error ? { error: lastRun.error } : {}) };
      } finally {
        stopAnswering();
        signal.removeEventListener('abort', stop);
      }
    },
    originalName(name) {
      return store.tab.value?.tools.find((t) => t.name === name)?.originalName ?? name;
    },
  };
}

/** Resolves with the first snapshot that satisfies `test`; rejects on abort, or after `limitMs` when given. */
function until(store: InspectorStore, test: (tab: TabSnapshot) => boolean, signal: AbortSignal, limitMs?: number): Promise<TabSnapshot> {
  return new Promise((resolve, reject) => {
    let dispose = () => {};
    let timer: ReturnType<typeof setTimeout> | undefined;
    const finish = (settle: () => void) => {
      dispose();
      if (timer !== undefined) clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      settle();
    };
    const onAbort = () => finish(() => reject(new Error('Stopped.')));
    if (signal.aborted) return reject(new Error('Stopped.'));
    signal.addEventListener('abort', onAbort, { once: true });
    if (limitMs !== undefined) timer = setTimeout(() => finish(() => reject(new Error('The page offered no tools in time.'))), limitMs);
    dispose = effect(() => {
      const tab = store.tab.value;
      if (tab && test(tab)) queueMicrotask(() => finish(() => resolve(tab)));
    });
  });
}

function describeStatus(status: { state: string; reason?: string; error?: string } | undefined): string {
  if (!status) return 'no agent is chosen.';
  if (status.state === 'unavailable') return status.reason ?? 'it is unavailable.';
  if (status.state === 'error') return status.error ?? 'it failed to start.';
  if (status.state === 'needs-download') return 'its model is not downloaded yet.';
  return `it is ${status.state}.`;
}

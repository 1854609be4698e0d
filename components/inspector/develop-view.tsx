import { effect } from '@preact/signals';
import { isDebuggingTool } from '../../lib/agent/is-debugging-tool';
import type { ChatStore } from '../chat/create-chat-store';
import { originOf, ToolInspector } from '../chat/tools-view';
import type { EvalTabsPort } from './create-eval-driver';
import { createEvalsState, type EvalsState } from './create-evals-state';
import { EvalsView } from './evals-view';
import { TimelineView } from './timeline-view';

/**
 * The site author's view: the evals and the call timeline. It is its own chunk, loaded only when opened, so the
 * panel costs people who just use the agent nothing for it.
 */
export function DevelopView({ store, evals }: { store: ChatStore; evals: EvalsState }) {
  return (
    <div class="develop">
      <DebuggingTools store={store} />
      <EvalsView evals={evals} store={store} />
      <TimelineView store={store} />
    </div>
  );
}

/**
 * The page's debugging tools (`annotations.debugging`): for its developers, so no agent is offered them
 * (docs/security.md, "Debugging tools"); here the person reads and runs them by hand. Nothing when the page has none.
 */
function DebuggingTools({ store }: { store: ChatStore }) {
  const tab = store.tab.value;
  const tools = (tab?.tools ?? []).filter(isDebuggingTool);
  if (!tab || tools.length === 0) return null;
  const topOrigin = tab.page?.url ? originOf(tab.page.url) : undefined;
  return (
    <section class="tools-view debugging-tools" aria-labelledby="debugging-tools-title">
      <h2 id="debugging-tools-title">Debugging tools</h2>
      <p class="muted">The page marks these for its developers (debugging: true): no agent is offered them. Run them by hand here.</p>
      <ul class="tool-list">
        {tools.map((tool) => (
          <li key={tool.name}>
            <ToolInspector tool={tool} tab={tab} store={store} topOrigin={topOrigin} />
          </li>
        ))}
      </ul>
    </section>
  );
}

let shared: { store: ChatStore; evals: EvalsState } | undefined;

/**
 * The panel's one evals state: created on first use and kept for the page's life, so a run goes on while the
 * person reads the chat, and the headless runner drives the same one.
 */
export function evalsFor(store: ChatStore, tabs: EvalTabsPort): EvalsState {
  if (shared?.store !== store) shared = { store, evals: createEvalsState(store, tabs) };
  return shared.evals;
}

/** How long the headless runner waits for the agent to be ready (a cloud connection check, a model loading). */
const AGENT_READY_MS = 60_000;

/** Resolves once the chosen agent can run, or says why it cannot (a model to download, a missing key). */
export function whenAgentReady(store: ChatStore): Promise<{ ok: true } | { ok: false; reason: string }> {
  return new Promise((resolve) => {
    let dispose = () => {};
    const timer = setTimeout(
      () => finish({ ok: false, reason: `The agent was not ready within ${AGENT_READY_MS / 1000} s.` }),
      AGENT_READY_MS,
    );
    const finish = (value: { ok: true } | { ok: false; reason: string }) => {
      clearTimeout(timer);
      queueMicrotask(() => dispose());
      resolve(value);
    };
    dispose = effect(() => {
      const status = store.adapter.value?.status;
      if (!status) return;
      if (status.state === 'ready') finish({ ok: true });
      else if (status.state === 'unavailable') finish({ ok: false, reason: status.reason });
      else if (status.state === 'error') finish({ ok: false, reason: status.error });
      else if (status.state === 'needs-download')
        finish({ ok: false, reason: 'The on-device model is not downloaded in this browser profile.' });
    });
  });
}

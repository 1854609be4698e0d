import type { ChatStore } from '../panel/create-panel-store';
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
      <EvalsView evals={evals} store={store} />
      <TimelineView store={store} />
    </div>
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

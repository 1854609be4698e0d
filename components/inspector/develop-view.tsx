import type { EvalsState } from './create-evals-state';
import { EvalsView } from './evals-view';
import type { InspectorStore } from './inspector-store';
import { TimelineView } from './timeline-view';

/**
 * The site author's view: the evals and the call timeline. It is its own chunk, loaded only when opened, so the
 * panel costs people who just use the agent nothing for it.
 */
export function DevelopView({ store, evals }: { store: InspectorStore; evals: EvalsState }) {
  return (
    <div class="develop">
      <EvalsView evals={evals} store={store} />
      <TimelineView store={store} />
    </div>
  );
}

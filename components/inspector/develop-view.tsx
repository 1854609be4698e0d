import { isDebuggingTool } from '../../lib/agent/is-debugging-tool';
import type { EvalsState } from './create-evals-state';
import { EvalsView } from './evals-view';
import type { InspectorStore } from './inspector-store';
import { TimelineView } from './timeline-view';
import { originOf, ToolInspector } from './tools-view';

/**
 * The site author's view: the page's debugging tools, the evals and the call timeline. It is its own chunk, loaded
 * only when opened, so the panel costs people who just use the agent nothing for it.
 */
export function DevelopView({ store, evals }: { store: InspectorStore; evals: EvalsState }) {
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
function DebuggingTools({ store }: { store: InspectorStore }) {
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

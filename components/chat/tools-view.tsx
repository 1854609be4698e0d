import type { ToolAnnotations } from '../../lib/agent/types';
import type { TabSnapshot } from '../../lib/messaging/agent-messages';

function badges(annotations: ToolAnnotations | undefined): { label: string; tone: string }[] {
  const out: { label: string; tone: string }[] = [];
  if (annotations?.readOnlyHint === true) out.push({ label: 'Read-only', tone: '' });
  if (annotations?.consequentialHint === true) out.push({ label: 'Consequential', tone: 'warn' });
  if (annotations?.untrustedContentHint === true) out.push({ label: 'Returns untrusted content', tone: '' });
  return out;
}

export interface ToolsViewProps {
  tab: TabSnapshot | undefined;
}

/** What the agent can do on this page: the page's tools, with their descriptions and annotations. */
export function ToolsView({ tab }: ToolsViewProps) {
  const tools = tab?.tools ?? [];
  return (
    <section class="tools-view" aria-labelledby="tools-title">
      <h2 id="tools-title">Tools on this page</h2>
      {(tab?.toolsDropped ?? []).map((d) => (
        <p key={d.reason} class="muted tools-dropped" role="note">
          {d.note}
        </p>
      ))}
      {!tab?.toolsKnown ? (
        <p class="muted">Asking the page for its tools…</p>
      ) : tools.length === 0 ? (
        <div class="empty">
          <p>
            <strong>This page offers no tools.</strong>
          </p>
          <p>
            The agent acts on a page only through the tools the page itself provides with WebMCP (for example a “search” or
            “add to cart” tool). Without them it can still talk with you, but it cannot do anything here.
          </p>
          <p class="muted">Open a site that supports WebMCP, or reload this page if it should have tools.</p>
        </div>
      ) : (
        <ul class="tool-list">
          {tools.map((tool) => (
            <li key={tool.name}>
              <h3>{tool.title ?? tool.name}</h3>
              {tool.title && <code>{tool.name}</code>}
              <p>{tool.description || 'No description.'}</p>
              {badges(tool.annotations).length > 0 && (
                <ul class="badges" aria-label="Annotations">
                  {badges(tool.annotations).map((b) => (
                    <li key={b.label} class={`badge ${b.tone}`}>
                      {b.label}
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

import { useState } from 'preact/hooks';
import type { ToolAnnotations } from '../../lib/agent/types';
import type { PanelTool, TabSnapshot } from '../../lib/messaging/agent-messages';
import { HandRunForm } from './hand-run-form';
import { SchemaTable } from './schema-table';
import type { InspectorStore } from './inspector-store';
import { hostOf } from '../../lib/shared/host-of';

function badges(annotations: ToolAnnotations | undefined): { label: string; tone: string }[] {
  const out: { label: string; tone: string }[] = [];
  if (annotations?.readOnlyHint === true) out.push({ label: 'Read-only', tone: '' });
  if (annotations?.consequentialHint === true) out.push({ label: 'Consequential', tone: 'warn' });
  if (annotations?.untrustedContentHint === true) out.push({ label: 'Returns untrusted content', tone: '' });
  if (annotations?.debugging === true) out.push({ label: 'Debugging: not offered to agents', tone: 'warn' });
  return out;
}

/**
 * Tools shown before "Show more": each row carries its schema table and a hand-run form, and a page (or a task's
 * tabs) with hundreds of tools would otherwise build them all at once (issue 49: 300 rows took over half a second).
 */
export const TOOLS_SHOWN_AT_FIRST = 40;

interface ToolsViewProps {
  tab: TabSnapshot | undefined;
  store: InspectorStore;
}

/**
 * What the agent can do on this page, as an inspector: each tool with its frame and origin, its input schema in
 * words, its annotations and output schema, and a form to run it by hand.
 */
export function ToolsView({ tab, store }: ToolsViewProps) {
  const tools = tab?.tools ?? [];
  const [shown, setShown] = useState(TOOLS_SHOWN_AT_FIRST);
  const more = tools.length - shown;
  const topOrigin = tab?.page?.url ? originOf(tab.page.url) : undefined;
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
            The agent acts on a page only through the tools the page itself provides with WebMCP (for example a “search” or “add to cart”
            tool). Without them it can still talk with you, but it cannot do anything here.
          </p>
          <p class="muted">Open a site that supports WebMCP, or reload this page if it should have tools.</p>
        </div>
      ) : (
        <>
          <ul class="tool-list">
            {tools.slice(0, shown).map((tool) => (
              <li key={tool.name}>
                <ToolInspector tool={tool} tab={tab} store={store} topOrigin={topOrigin} />
              </li>
            ))}
          </ul>
          {more > 0 ? (
            <button type="button" class="show-more-tools" onClick={() => setShown(shown + TOOLS_SHOWN_AT_FIRST * 5)}>
              Show {Math.min(more, TOOLS_SHOWN_AT_FIRST * 5)} more of {tools.length} tools
            </button>
          ) : null}
        </>
      )}
    </section>
  );
}

/** One tool, inspected: what the model would see of it, where it lives, and a form to run it by hand. */
export function ToolInspector({
  tool,
  tab,
  store,
  topOrigin,
}: {
  tool: PanelTool;
  tab: TabSnapshot;
  store: InspectorStore;
  topOrigin?: string;
}) {
  const marks = badges(tool.annotations);
  const elsewhere = tool.origin !== undefined && tool.origin !== topOrigin;
  return (
    <details class="tool-inspect">
      <summary>
        <span class="tool-heading">
          <h3>{tool.title ?? tool.name}</h3>
          {tool.title && <code>{tool.name}</code>}
        </span>
        {elsewhere && <span class="badge warn">{hostOf(tool.origin ?? '')}</span>}
      </summary>
      <p>{tool.description || 'No description.'}</p>
      {marks.length > 0 && (
        <ul class="badges" aria-label="Annotations">
          {marks.map((b) => (
            <li key={b.label} class={`badge ${b.tone}`}>
              {b.label}
            </li>
          ))}
        </ul>
      )}
      <dl class="tool-facts">
        <dt>Name for the model</dt>
        <dd>
          <code>{tool.name}</code>
        </dd>
        {tool.originalName && tool.originalName !== tool.name && (
          <>
            <dt>The page's name</dt>
            <dd>
              <code>{tool.originalName}</code>
            </dd>
          </>
        )}
        <dt>Frame</dt>
        <dd>{tool.frameId === undefined ? 'unknown' : tool.frameId === 0 ? 'the top frame' : `a frame (id ${tool.frameId})`}</dd>
        <dt>Origin</dt>
        <dd>{tool.origin ?? 'unknown'}</dd>
        {tool.declarative && (
          <>
            <dt>Kind</dt>
            <dd>a declarative form</dd>
          </>
        )}
      </dl>
      <h4>Input</h4>
      {tool.schemaError && (
        <p class="field-error">The page's inputSchema was not usable, so the agent sees no parameters: {tool.schemaError}</p>
      )}
      <SchemaTable schema={tool.inputSchema} label={`Input of ${tool.name}`} />
      {tool.outputSchema && (
        <>
          <h4>Output</h4>
          <SchemaTable schema={tool.outputSchema} label={`Output of ${tool.name}`} />
        </>
      )}
      <h4>Run by hand</h4>
      <HandRunForm tool={tool} store={store} tab={tab} />
    </details>
  );
}

/** The origin of a URL, or undefined when it is none. */
export function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

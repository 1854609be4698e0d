/**
 * What both demo sites (the shop, demo/app.js, and the recipes, demo/recipes/app.js) share as single-page apps with
 * hash routes: page text escaped into markup, the route read from the hash, and the WebMCP tools of the view on
 * screen, registered while it shows, with the status line that lists them.
 */
import { registerTool } from './webmcp.js';

/** `value` as text inside HTML markup. */
export function escapeHtml(value) {
  return String(value).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}

/** Parses location.hash into a route: #/ is home, #/<name>/<id>?<params> the rest. */
export function currentRoute() {
  const hash = location.hash.replace(/^#/, '') || '/';
  const [path, query = ''] = hash.split('?');
  const parts = path.split('/').filter(Boolean);
  return { name: parts[0] ?? 'home', id: parts[1] ? decodeURIComponent(parts[1]) : undefined, params: new URLSearchParams(query) };
}

/**
 * The site's registered tools and the status line naming them. `alsoShown`: names the status line lists besides the
 * registered ones (the shop's declarative form), read each time it is written.
 * @param {HTMLElement} statusLine
 * @param {() => string[]} [alsoShown]
 */
export function createPageTools(statusLine, alsoShown = () => []) {
  /** The model context once found, and which tools are registered, for the status line. */
  let modelContext = null;
  const registered = new Set();
  let viewTools = new AbortController();

  function showStatus() {
    if (!modelContext) return;
    statusLine.dataset.state = 'ready';
    statusLine.textContent = `WebMCP tools on this page: ${[...registered, ...alsoShown()].join(', ')}.`;
  }

  return {
    /** Registers the tools of every view with `mc`, once, for the page's life. */
    async start(mc, siteTools) {
      modelContext = mc;
      const siteToolsSignal = new AbortController().signal;
      for (const tool of siteTools) {
        if (await registerTool(mc, tool, siteToolsSignal)) registered.add(tool.name);
      }
    },
    /** Tools that belong to the current view go when the view goes: `tools` are the new view's. */
    swapViewTools(tools) {
      viewTools.abort();
      viewTools = new AbortController();
      const { signal } = viewTools;
      for (const tool of tools) {
        signal.addEventListener('abort', () => {
          registered.delete(tool.name);
          showStatus();
        });
        if (modelContext) {
          void registerTool(modelContext, tool, signal).then((ok) => {
            if (ok && !signal.aborted) registered.add(tool.name);
            showStatus();
          });
        }
      }
      showStatus();
    },
  };
}

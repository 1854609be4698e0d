/**
 * Tools exposed across origins (Chrome 159's `exposedTo` and `fromOrigins`; docs/webmcp-conformance.md). A page
 * cannot reach a frame of another origin, so the extension relays (lib/page-world/exposure-link.ts): each document tells
 * it which of its tools it exposes to which origins, and a document that asks for an origin's tools gets those
 * exposed to its own, each with the frame's window as it reaches it, and runs them through the extension.
 */
import type { ExposedTool, ExposedToolEntry } from '../messaging/router-messages';
import type { ExposureLink } from './exposure-link';
import { isSameOrigin } from './frame-tree-peers';
import type { PolyfillToolInfo } from './polyfill-tool-info';
import type { CheckedTool } from './read-model-context-tool';
import type { RegisteredToolRef } from './read-registered-tool';
import { readToolInputJson } from './read-tool-input-json';
import { unknownToolError } from './unknown-tool-error';
import { windowAtPath, windowsBreadthFirst } from '../webmcp/window-path';

/**
 * `exposedTo` as a tool keeps it: serialised origins (an opaque one matches no document). `url`: the page realm's
 * URL constructor.
 */
export function exposedOrigins(exposedTo: string[] | undefined, url: typeof URL): { exposedTo?: string[] } {
  const origins = [...new Set((exposedTo ?? []).map((origin) => new url(origin).origin))].filter((o) => o !== 'null');
  return origins.length > 0 ? { exposedTo: origins } : {};
}

/**
 * What a document tells the extension it exposes to other origins (all of it, now): those of its `tools` exposed to
 * any, none while the document is `hidden` (being unloaded).
 */
export function exposedToolsOf(tools: Iterable<CheckedTool & { exposedTo?: string[] }>, hidden: boolean): ExposedTool[] {
  return hidden
    ? []
    : [...tools]
        .filter((tool) => tool.exposedTo)
        .map(({ name, title, description, schemaJson, annotations, exposedTo }) => ({
          name,
          title,
          description,
          ...(schemaJson === undefined ? {} : { inputSchemaJson: schemaJson }),
          ...(annotations ? { annotations } : {}),
          exposedTo: exposedTo ?? [],
        }));
}

/**
 * The local list of `self`'s document (of origin `ownOrigin`) with the tools other origins' frames expose to it
 * (`entries`, as the extension lists them), each with its frame's window as this document reaches it; sorted by
 * name and, between equal names, breadth first from the top, as native lists.
 */
export function withExposedTools(
  self: Window,
  ownOrigin: string,
  local: PolyfillToolInfo[],
  entries: ExposedToolEntry[],
): PolyfillToolInfo[] {
  const top = self.top ?? self;
  const exposed = entries.flatMap((entry): PolyfillToolInfo[] => {
    const win = windowAtPath(top, entry.path);
    // A window this document can read is its own origin's: never another origin's tool.
    if (!win || win === self || isSameOrigin(win, ownOrigin)) return [];
    let inputSchema: Record<string, unknown> | undefined;
    try {
      inputSchema = entry.inputSchemaJson === undefined ? undefined : JSON.parse(entry.inputSchemaJson);
    } catch {
      inputSchema = undefined;
    }
    return [
      {
        ...(entry.annotations ? { annotations: { ...entry.annotations } } : {}),
        description: String(entry.description),
        ...(inputSchema === undefined ? {} : { inputSchema }),
        name: String(entry.name),
        origin: String(entry.origin),
        title: String(entry.title),
        window: win,
      },
    ];
  });
  if (exposed.length === 0) return local;
  const order = windowsBreadthFirst(top);
  const rank = (win: Window) => order.indexOf(win);
  return [...local, ...exposed].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : rank(a.window) - rank(b.window)));
}

/**
 * Runs, through the extension's `link`, another origin's tool that its frame exposed to the origin of `self`'s
 * document, found again by what the extension lists now (a tool unregistered since, or one made up, is unknown). As
 * a same-origin frame's: the call rejects at once with the caller's reason when it is aborted, and the tool's own
 * signal aborts in its document.
 */
export function runOtherOriginTool(
  link: ExposureLink | undefined,
  self: Window,
  { name, origin, win }: RegisteredToolRef,
  input: unknown,
  signal: AbortSignal | undefined,
): Promise<string | null> {
  const unknown = unknownToolError;
  if (!link) throw unknown();
  const top = self.top ?? self;
  return link.list([origin]).then((entries) => {
    const entry = entries.find((e) => e.name === name && e.origin === origin && windowAtPath(top, e.path) === win);
    if (!entry) throw unknown();
    const json = readToolInputJson(input);
    if (signal?.aborted) throw signal.reason;
    return new Promise<string | null>((resolve, reject) => {
      const aborted = () => reject(signal?.reason);
      signal?.addEventListener('abort', aborted, { once: true });
      link
        .run(entry, json, signal)
        .then(resolve, (error: { name?: unknown; message?: unknown }) =>
          reject(new DOMException(String(error?.message), String(error?.name))),
        )
        .finally(() => signal?.removeEventListener('abort', aborted));
    });
  });
}

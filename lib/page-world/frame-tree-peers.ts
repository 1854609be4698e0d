/**
 * The frame tree. Native WebMCP lists the tools of every same-origin document of the page's frame tree, runs a
 * tool in the document that registered it, and fires `toolchange` in every same-origin document when one of them
 * registers or unregisters a tool. Same-origin documents can reach each other's windows, so each polyfill puts a
 * {@link Peer} on its window under a key (not enumerable) for the polyfills of the others; a cross-origin
 * window is never read (the browser lets a page only count and index its frames), so its tools are never listed
 * or reached, and it never sees these. A page can already do anything to a same-origin frame: this gives it
 * nothing new.
 */
import { type ModelContextStub, STUB_KEY } from './install-model-context-stub';
import type { PolyfillToolInfo } from './polyfill-tool-info';
import { unknownToolError } from './unknown-tool-error';

/** The key of a window's {@link Peer}: one symbol across realms, so each document's polyfill finds the others'. */
const PEER_KEY = Symbol.for('webmcp-agent.model-context-peer');

/** A tool as a polyfill hands it to another document's: plain data (the schema as JSON text). */
interface PeerTool {
  name: string;
  title: string;
  description: string;
  schemaJson?: string;
  outputSchemaJson?: string;
  annotations?: Record<string, boolean>;
}

/** What one document's polyfill offers the polyfills of the other same-origin documents of its frame tree. */
export interface Peer {
  /** This document's origin, as its tools report it. */
  origin: string;
  /** This document's own tools, in registration order. */
  tools(): PeerTool[];
  /** Runs this document's tool `name` with the input as JSON text (parsed in this document's realm). */
  run(name: string, inputJson: string, signal: AbortSignal | undefined): Promise<string | null>;
  /** Fires `toolchange` here: a document of the tree registered or unregistered a tool. */
  changed(): void;
}

/** Puts `peer` on `win` (not enumerable) for the polyfills of the other same-origin documents of its frame tree. */
export function offerPeer(win: Window, peer: Peer): void {
  Object.defineProperty(win, PEER_KEY, { configurable: true, value: peer });
}

/**
 * A window's origin: `window.origin`, not `location.origin`, since an about:blank or srcdoc frame has its
 * creator's origin, as native lists it. Throws for a cross-origin window.
 */
export function originOf(win: Window): string {
  return (win as { origin?: string }).origin ?? win.location.origin;
}

/** The same-origin documents of a frame tree, each with its polyfill's peer (undefined where none has loaded yet). */
export type FrameTree = [Window, Peer | undefined][];

/**
 * The same-origin documents of `self`'s frame tree, `self` included (with `own`, its polyfill's peer), breadth
 * first from the top and each frame's children in the order the browser attached them (native's order), with the
 * polyfill each runs (if it has loaded one). Cross-origin windows are only counted and indexed, to reach
 * same-origin frames below them.
 */
export function frameTreePeers(self: Window, own: Peer): FrameTree {
  const found: FrameTree = [];
  const queue: Window[] = [self.top ?? self];
  for (let i = 0; i < queue.length; i++) {
    const win = queue[i] as Window & Record<symbol, Peer | undefined>;
    if (win === self) found.push([win, own]);
    else if (isSameOrigin(win, own.origin)) found.push([win, win[PEER_KEY]]);
    let count = 0;
    try {
      count = win.length;
    } catch {
      // A window that went away while it was walked.
    }
    for (let j = 0; j < count; j++) {
      const child = win[j];
      if (child) queue.push(child);
    }
  }
  return found;
}

/** Whether another window's document is of `origin` (a document's, as {@link originOf} reads it). */
export function isSameOrigin(win: Window, origin: string): boolean {
  try {
    // Reading more than the few members a cross-origin window allows throws: such a window is never read.
    return originOf(win) === origin;
  } catch {
    return false;
  }
}

/**
 * Runs another document's tool: toolactivated and toolcancel fire at that document's modelContext. The call
 * rejects with UnknownError, as native's, if that document goes away (its frame navigates or is removed) first.
 * When the calling document (`caller`) goes away first, the call is cancelled as if its signal aborted: the tool's
 * signal aborts and toolcancel fires in the tool's document (the spec's unloading document cleanup steps, "cancel
 * a pending tool execution"; native Chromium 156 does so).
 */
export function runInPeer(
  caller: Window,
  win: Window,
  peer: Peer,
  name: string,
  json: string,
  signal: AbortSignal | undefined,
): Promise<string | null> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  const cancel = new AbortController();
  const leave = () => cancel.abort();
  caller.addEventListener('pagehide', leave, { once: true });
  signal?.addEventListener('abort', () => cancel.abort(signal.reason), { once: true });
  return new Promise((resolve, reject) => {
    const gone = () => reject(unknownToolError());
    win.addEventListener('pagehide', gone, { once: true });
    // At once, as native: not after the other document's rejection has come through its promise.
    const aborted = () => reject(signal?.reason);
    signal?.addEventListener('abort', aborted, { once: true });
    peer
      .run(name, json, cancel.signal)
      .then(resolve, (error) =>
        // The other document's DOMException, remade in this one's realm.
        reject(
          error instanceof DOMException || typeof error !== 'object' || error === null || error.constructor?.name !== 'DOMException'
            ? error
            : new DOMException(String(error.message), String(error.name)),
        ),
      )
      .finally(() => {
        caller.removeEventListener('pagehide', leave);
        win.removeEventListener('pagehide', gone);
        signal?.removeEventListener('abort', aborted);
      });
  });
}

/** Every tool a document lists: those of the same-origin documents of its frame tree ({@link frameTreePeers}). */
export function listFrameTreeTools(tree: FrameTree): PolyfillToolInfo[] {
  // Breadth first from the top, as native lists them; sorted by name, the sort keeps that order between equal names.
  return tree
    .flatMap(([win, peer]) =>
      peer
        ? peer.tools().map((tool) => ({
            ...(tool.annotations ? { annotations: { ...tool.annotations } } : {}),
            description: tool.description,
            ...(tool.schemaJson === undefined ? {} : { inputSchema: JSON.parse(tool.schemaJson) }),
            name: tool.name,
            origin: peer.origin,
            ...(tool.outputSchemaJson === undefined ? {} : { outputSchema: JSON.parse(tool.outputSchemaJson) }),
            title: tool.title,
            window: win,
          }))
        : [],
    )
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * Fires `toolchange` in every same-origin document of the tree ({@link frameTreePeers}), in the tree's order: at
 * its polyfill, or, where none has loaded yet, at the stub's modelContext if its page has read it.
 */
export function notifyFrameTree(tree: FrameTree): void {
  for (const [win, peer] of tree) {
    try {
      if (peer) peer.changed();
      else {
        const stub = (win as unknown as Record<symbol, ModelContextStub | undefined>)[STUB_KEY];
        stub?.built?.dispatchEvent(new (win as Window & typeof globalThis).Event('toolchange'));
      }
    } catch {
      // A document that went away meanwhile.
    }
  }
}

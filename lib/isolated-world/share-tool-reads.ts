/**
 * One native `getTools()` read for the same-origin frames of a tab (issue 45). Chromium's `getTools()` answers any
 * same-origin document of the tree with the tools of all of them, and each frame's bridge reads them for its own
 * report (list-frame-tools.ts keeps the frame's own entries). So a page of seventeen frames of 200 tools each cost
 * the browser seventeen answers of all 3,200 tools as its bridges started, about 160 ms of its main thread each on
 * Chromium 156 (a trace of the native report flood), the thread every extension message waits for.
 *
 * Here a frame that asks while another frame's read runs joins the next read instead of starting its own: the frames
 * that ask meanwhile share the one that starts when it ends. A read joined is never one that started before the frame
 * asked, so it sees every change the frame's own would have seen (a frame's list is stamped before it asks:
 * create-frame-tool-host.ts). A frame that asks when no read runs reads at once, as before.
 *
 * Where the frames meet: an object on the top window in this extension's isolated world, which the content scripts of
 * same-origin frames share and the page's own scripts cannot see. Only documents same-origin with the top all the way
 * up take part (the caller gives `treeTop` for those only: sameOriginAncestry). An entry read in another frame runs
 * in the frame that registered it through this frame's `executeTool` (Chromium 156). A read whose frame goes away
 * (navigates, is removed) before it answers, or that fails, is not waited for: the frames that joined it read for
 * themselves.
 */

/** What a read needs of native WebMCP. */
interface ToolReader {
  getTools(): Promise<unknown[]>;
}

/** A read one frame runs for the tree: who runs it (its window and document then), and its answer. */
interface TreeRead {
  owner: Window;
  ownerDocument: Document;
  answer: Promise<unknown[]>;
}

/** The tree's reads: the one running, and the one the frames that asked meanwhile wait for. Plain data, no closures. */
interface TreeReads {
  running?: TreeRead;
  queued?: TreeRead;
}

/**
 * The key on the top window. Registered (`Symbol.for`) because every frame runs its own copy of this module; the
 * page's world has the same symbol but not this world's properties of the window.
 */
const TREE_READS = Symbol.for('webmcp-agent/tree-tool-reads');

/**
 * The longest a frame waits for a read another frame runs before it reads for itself: a safeguard for a read that
 * never answers (its frame went away without a `pagehide`, or Chromium's own hang of a frame's WebMCP calls:
 * docs/testing.md), which would otherwise hold the other frames' lists too. Twice a read of megabytes (7.3 s for
 * 2 MB of tools on Chromium 156, docs/security.md), so that such a page's frames still share their reads.
 */
const MAX_JOINED_WAIT_MS = 15_000;

/**
 * How often a frame that waits for another frame's read looks whether that frame has left the document it read in.
 * `pagehide` says so as a rule, but not every replacement of a document fires it where this world hears it (a
 * frame's initial about:blank replaced by its first document reuses the window); and a read whose document is gone
 * may never answer on Chromium (docs/testing.md), so without the look it would hold the others to the safeguard.
 */
const OWNER_CHECK_MS = 1_000;

/** Options of {@link shareToolReads}. */
interface ShareToolReadsOptions {
  /** This frame's window. */
  win: Window;
  native: ToolReader;
  /** The tree's top window where its frames' reads are shared; undefined: this frame reads alone. */
  treeTop: Window | undefined;
  /** A safeguard on waiting for another frame's read (default MAX_JOINED_WAIT_MS). */
  maxJoinedWaitMs?: number;
  /** How often a waiting frame looks whether the reading frame left its document (default OWNER_CHECK_MS). */
  ownerCheckMs?: number;
}

/** Returns this frame's read of native's tools, shared with the tree's other frames where it overlaps theirs. */
export function shareToolReads(options: ShareToolReadsOptions): () => Promise<unknown[]> {
  const { win, native, treeTop } = options;
  const ownRead = () => native.getTools();
  const wait: JoinWait = { maxMs: options.maxJoinedWaitMs ?? MAX_JOINED_WAIT_MS, checkMs: options.ownerCheckMs ?? OWNER_CHECK_MS };
  return () => {
    const tree = treeTop && treeReadsOn(treeTop);
    if (!tree) return ownRead();
    const queued = tree.queued;
    if (queued && !isGone(queued)) return joinRead(win, queued, ownRead, wait);
    const running = tree.running;
    if (running && !isGone(running)) {
      const next = startRead(win, tree, async () => {
        // Only waiting for its end: its answer is older than this frame's ask.
        await joinRead(win, running, async () => [], wait).catch(() => undefined);
        if (tree.queued === next) tree.queued = undefined;
        tree.running = next;
        return ownRead();
      });
      tree.queued = next;
      return next.answer;
    }
    const now = startRead(win, tree, ownRead);
    tree.running = now;
    return now.answer;
  };
}

/** The tree's reads, made on first use; undefined where the top cannot hold them (then each frame reads alone). */
function treeReadsOn(top: Window): TreeReads | undefined {
  try {
    const slots = top as unknown as Record<symbol, TreeReads | undefined>;
    const found = slots[TREE_READS];
    if (found) return found;
    const made: TreeReads = {};
    Object.defineProperty(top, TREE_READS, { value: made, configurable: true });
    return made;
  } catch {
    return undefined;
  }
}

/** A read this frame runs for the tree; it leaves the tree's `running` when it settles. */
function startRead(win: Window, tree: TreeReads, read: () => Promise<unknown[]>): TreeRead {
  const entry: TreeRead = { owner: win, ownerDocument: win.document, answer: Promise.resolve([]) };
  entry.answer = read().finally(() => {
    if (tree.running === entry) tree.running = undefined;
  });
  return entry;
}

/** How long a frame waits for another frame's read at most, and how often it looks whether that frame is gone. */
interface JoinWait {
  maxMs: number;
  checkMs: number;
}

/**
 * Another frame's read, or this frame's own (`fallback`) when that read fails, its frame goes away before it answers
 * (`pagehide`, or seen gone by a look every `wait.checkMs`), or it takes longer than `wait.maxMs`.
 */
async function joinRead(win: Window, read: TreeRead, fallback: () => Promise<unknown[]>, wait: JoinWait): Promise<unknown[]> {
  const GONE = Symbol('gone');
  let leave = () => {};
  const gone = new Promise<typeof GONE>((resolve) => {
    const wake = () => resolve(GONE);
    const timer = win.setTimeout(wake, wait.maxMs);
    const look = win.setInterval(() => {
      if (isGone(read)) wake();
    }, wait.checkMs);
    try {
      read.owner.addEventListener('pagehide', wake, { once: true });
    } catch {
      wake();
    }
    leave = () => {
      win.clearTimeout(timer);
      win.clearInterval(look);
      try {
        read.owner.removeEventListener('pagehide', wake);
      } catch {
        // Its document is gone or no longer of this origin: nothing to remove.
      }
    };
  });
  try {
    const answer = await Promise.race([read.answer, gone]);
    return answer === GONE ? await fallback() : answer;
  } catch {
    return fallback();
  } finally {
    leave();
  }
}

/** Whether the frame that runs `read` has left the document it ran it in (navigated, removed, cross-origin now). */
function isGone(read: TreeRead): boolean {
  try {
    return read.owner.closed || read.owner.document !== read.ownerDocument;
  } catch {
    return true;
  }
}

/**
 * Which document each frame of a tab holds now, as the router knows it (create-tool-router.ts): the one each frame's
 * bridge announced last (frame/ready), so a late report of the document it replaced is ignored; when each document
 * asked for its bridge (frame/load); and whether a tab whose top document went away crashed.
 */
import type { FrameSender } from './attest-frame-sender';

/** The most documents waiting for their bridge that are remembered at once (a page loading frames in a loop). */
const MAX_LOADS_ASKED = 500;

export interface FrameDocuments {
  /**
   * A frame's bridge announced a new document: returns when that document asked for its bridge, if it did.
   * `needsDelegation`: the document said it cannot vouch for its ancestors, so a check decides its tools policy.
   */
  started(sender: FrameSender, needsDelegation?: boolean): number | undefined;
  /**
   * A document asked for its bridge (frame/load), now. Kept for {@link FrameDocuments.started}, unless its bridge
   * announced this very document already (a delegation check or a watched tab loads the bridge into frames that did
   * not ask): then nothing is kept, and the time is returned if a check decides the document's tools policy, for
   * what was owed at `started` to be done now (while its policy is decided, it is told of no change).
   */
  loadAsked(sender: FrameSender): number | undefined;
  /** Whether the sender's document is one its frame has since replaced (its late messages describe nothing now). */
  replaced(sender: FrameSender): boolean;
  /**
   * The tab's top document (this one, when known) went away: if no newer top document announced itself and the
   * browser says the page is not loaded (`crashed`, asked across an await), `whenCrashed` runs.
   */
  checkCrashed(
    tabId: number,
    documentId: string | undefined,
    crashed: () => Promise<boolean>,
    whenCrashed: () => Promise<void>,
  ): Promise<void>;
  forgetTab(tabId: number): void;
}

/** Creates the record. */
export function createFrameDocuments(now: () => number = Date.now): FrameDocuments {
  /**
   * The document each frame announced last, by `${tabId}:${frameId}`, and whether a check decides its tools policy
   * (`started`'s needsDelegation).
   */
  const documents = new Map<string, { id: string; checked: boolean }>();
  /** When each document asked for its bridge, until its bridge announces it. */
  const asked = new Map<string, number>();
  const documentKey = (sender: FrameSender) => `${sender.tabId}:${sender.frameId}:${sender.documentId ?? ''}`;

  return {
    started(sender, needsDelegation = false) {
      const frameKey = `${sender.tabId}:${sender.frameId}`;
      if (sender.documentId) documents.set(frameKey, { id: sender.documentId, checked: needsDelegation });
      else documents.delete(frameKey);
      const at = asked.get(documentKey(sender));
      asked.delete(documentKey(sender));
      return at;
    },
    loadAsked(sender) {
      const at = now();
      const announced = documents.get(`${sender.tabId}:${sender.frameId}`);
      // Only where the browser names documents: a frame's earlier document must not stand for this one. A document
      // of the top's origin whose ancestors are too is allowed at once, and hears of every change as it comes.
      if (sender.documentId && announced?.id === sender.documentId) return announced.checked ? at : undefined;
      if (asked.size > MAX_LOADS_ASKED) asked.clear();
      asked.set(documentKey(sender), at);
      return undefined;
    },
    replaced(sender) {
      const current = documents.get(`${sender.tabId}:${sender.frameId}`)?.id;
      return current !== undefined && sender.documentId !== undefined && sender.documentId !== current;
    },
    async checkCrashed(tabId, documentId, crashed, whenCrashed) {
      const current = documents.get(`${tabId}:0`)?.id;
      if (documentId !== undefined && current !== undefined && current !== documentId) return;
      if (!(await crashed().catch(() => false))) return;
      // Asked across an await: a document that started meanwhile is a page again.
      if (documents.get(`${tabId}:0`)?.id !== current) return;
      await whenCrashed();
    },
    forgetTab(tabId) {
      for (const frameKey of [...documents.keys()]) if (frameKey.startsWith(`${tabId}:`)) documents.delete(frameKey);
    },
  };
}

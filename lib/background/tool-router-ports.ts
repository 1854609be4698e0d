/**
 * What the tool router (lib/background/create-tool-router.ts) and its parts are given: storage, the frames, the
 * toolbar badge, the agent host, and their time limits.
 */
import type { BackgroundToFrameMessage, BackgroundToHostMessage } from '../messaging/router-messages';
import type { PageBudgetOptions } from './create-page-budget';
import type { BridgeFrame, FoundFrame } from './load-connector';

/** The slice of chrome.storage.session the router needs. */
export interface SessionStore {
  get(keys: readonly string[]): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
  remove(keys: readonly string[]): Promise<void>;
}

export interface ToolRouterPorts {
  store: SessionStore;
  /**
   * tabs.sendMessage to one frame; rejects when the frame has no listener (gone, reloaded). With a documentId (Chrome)
   * it reaches that document only, so a call never lands in the document that replaced it.
   */
  sendToFrame(tabId: number, frameId: number, message: BackgroundToFrameMessage, documentId?: string): Promise<unknown>;
  /** action.setBadgeText for one tab ('' clears it). */
  setBadge(tabId: number, text: string): void;
  /** Pushes to the agent host (Chrome: its router line, set-up-router-lines.ts). Optional: a host in the same context needs none. */
  notifyHost?(message: BackgroundToHostMessage): void;
  /** What a page may make the router do (default: page-limits.ts's numbers, the real clock): create-page-budget.ts. */
  pageBudget?: PageBudgetOptions;
  /** A call's time limit in the page (default 30 s; waiting for the person's confirmation is not limited). */
  callTimeoutMs?: number;
  /** Cap on a result's characters (default 20,000). */
  maxResultChars?: number;
  /** How long a navigated call waits for the next document to report (default 10 s). */
  navigationTimeoutMs?: number;
  /**
   * How long a call whose tool asked for a continuation token waits, once its document went away, for the next
   * document to resume it, and then for the result (default: the call's time limit).
   */
  continuationTimeoutMs?: number;
  /** Mints continuation tokens (default crypto.randomUUID). */
  randomToken?(): string;
  /** How long a cross-origin frame's delegation check waits for its parent's token (default 3 s). */
  delegationWaitMs?: number;
  /**
   * Loads the rest of the bridge (page-connector.js in the page's world, frame-connector.js in the isolated one) into one
   * document or several, or into every frame of the tab without `frames`. Loading twice does nothing. Without it
   * (tests of the router alone) frames are assumed to have their bridge.
   */
  loadConnector?(tabId: number, frames?: BridgeFrame | readonly BridgeFrame[]): Promise<void>;
  /**
   * Every frame of the tab the extension can reach, and whether the bridge runs there (lib/background/
   * load-connector.ts, createFrameFinder). Without it (tests of the router alone) only known frames are asked about
   * their child frames.
   */
  findFrames?(tabId: number): Promise<readonly FoundFrame[]>;
  /**
   * How long a call whose frame stopped answering waits for evidence that it navigated (the frame's pagehide
   * notice, or its next document) before it counts as gone (default 1 s). A message's rejection can overtake
   * the notice the unloading document sent just before.
   */
  goneEvidenceMs?: number;
  /**
   * Whether the browser says the tab's page crashed (tabs.get, lib/background/is-crashed-tab.ts): asked when its top
   * document went away with no new one. Without it (tests of the router alone) no tab ever counts as crashed.
   */
  tabCrashed?(tabId: number): Promise<boolean>;
}

/**
 * Cross-origin tool exposure for the polyfill (issue 23, item 4): a tool a frame registers with
 * `{exposedTo: [origin]}` is listed by, and runs for, the documents of that origin elsewhere in the same tab's frame
 * tree that ask for the tool's origin (`getTools({fromOrigins})`), as native Chromium does. Documents of different
 * origins cannot reach each other, so the background relays between their bridges (docs/security.md §4, "Exposure
 * across origins"). Whatever a frame says is a claim about itself: the owner's and the asker's tab, frame,
 * document and origin are the browser's (`sender`), a frame only ever speaks for its own tools, and only a frame the
 * `tools` permissions policy allows takes part.
 */
import type { ExposedCallAnswer, ExposedTool, ExposedToolEntry } from '../messaging/router-messages';
import type { FrameSender } from './attest-frame-sender';
import type { SessionStore } from './tool-router-ports';
import { MAX_WINDOW_PATH } from '../webmcp/window-path';

/** Native Chromium's words for a tool that is unknown, gone, or not exposed to the caller. */
export const UNKNOWN_TOOL_MESSAGE = 'The operation failed for an unknown transient reason (e.g. out of memory).';

/** Bounds on what one frame may claim (a flood must not fill the background). */
const MAX_TOOLS = 128;
const MAX_ORIGINS = 64;
const MAX_TEXT = 20_000;
const MAX_SCHEMA = 100_000;

/** What the relay needs from the router. */
interface ExposureRelayPorts {
  /** Whether the attested frame may use tools (lib/background/create-tab-registry.ts). */
  mayUseTools(sender: FrameSender): Promise<boolean>;
  /** The frames of a tab that may use tools now, with their attested origins. */
  allowedFrames(tabId: number): Promise<{ frameId: number; origin: string }[]>;
  /** tabs.sendMessage to one frame (to one document on Chrome); rejects when nobody answers. */
  sendToFrame(tabId: number, frameId: number, message: unknown, documentId?: string): Promise<unknown>;
  /** Where the exposures outlive the service worker (Chrome stops an idle one); kept in memory only without it. */
  store?: SessionStore;
  /** The clock (ms); Date.now by default. */
  now?: () => number;
}

/** One frame's exposed tools, as the relay keeps them: the owner as the browser attested it. */
interface ExposedFrame {
  origin: string;
  documentId?: string;
  path: number[];
  tools: ExposedTool[];
}

/** The relay, fed by the router with attested senders. */
export interface ExposureRelay {
  /** frame/exposed: the frame's exposed tools now. Resolves once kept and the frames it concerns were told. */
  publish(sender: FrameSender, tools: unknown, path: unknown): Promise<void>;
  /** frame/exposed-tools. */
  list(sender: FrameSender, fromOrigins: unknown): Promise<ExposedToolEntry[]>;
  /** frame/run-exposed. */
  run(
    sender: FrameSender,
    request: { callId?: unknown; frameId?: unknown; origin?: unknown; name?: unknown; input?: unknown },
  ): Promise<ExposedCallAnswer>;
  /** frame/cancel-exposed. */
  cancel(sender: FrameSender, callId: unknown): void;
  /** The frame's document is gone or replaced (frame/ready). */
  forgetFrame(tabId: number, frameId: number): Promise<void>;
  /**
   * frame/ready of a document that asked for its bridge (frame/load) at `loadAsked` (ms), or frame/load of one whose
   * bridge was loaded unasked and announced it already: a change of the tools exposed to its origin since then
   * reached no bridge of it, or none allowed to hear it yet, so it hears one `bridge/exposed-changed` once it may use
   * tools (a page that only listens for `toolchange` wakes its bridge, and must not miss what came while it loaded).
   */
  caughtUp(sender: FrameSender, loadAsked: number | undefined): Promise<void>;
  forgetTab(tabId: number): void;
}

const storeKey = (tabId: number) => `bridge:exposed:${tabId}`;

/** Creates the relay. */
export function createExposureRelay(ports: ExposureRelayPorts): ExposureRelay {
  const now = ports.now ?? Date.now;
  const tabs = new Map<number, Map<number, ExposedFrame>>();
  /** Each frame's publications, one after another: a later one must not be overtaken by an earlier one's check. */
  const publishing = new Map<string, Promise<void>>();
  /** Running calls by the caller's key: where each runs, so only its caller can stop it. */
  const running = new Map<string, { tabId: number; frameId: number; documentId?: string; callId: string }>();
  let counter = 0;

  /** A tab's exposures, from memory or, after the service worker restarted, from session storage (its own writes). */
  const framesOf = async (tabId: number): Promise<Map<number, ExposedFrame>> => {
    const known = tabs.get(tabId);
    if (known) return known;
    const read: Record<string, unknown> = ports.store ? await ports.store.get([storeKey(tabId)]).catch(() => ({})) : {};
    const stored = read[storeKey(tabId)];
    const frames = tabs.get(tabId) ?? new Map<number, ExposedFrame>(Array.isArray(stored) ? (stored as [number, ExposedFrame][]) : []);
    tabs.set(tabId, frames);
    return frames;
  };
  const save = (tabId: number) => {
    const frames = tabs.get(tabId);
    if (frames) void ports.store?.set({ [storeKey(tabId)]: [...frames] }).catch(() => undefined);
  };

  /** When the tools exposed to an origin in a tab last changed (`${tabId} ${origin}`), for {@link ExposureRelay.caughtUp}. */
  const changedAt = new Map<string, number>();
  /** When each frame (`${tabId}:${frameId}`) was last told of a change, so a catch-up does not tell it twice. */
  const toldAt = new Map<string, number>();
  const tellConcerned = async (tabId: number, owner: number, ownerOrigin: string, origins: Set<string>) => {
    if (origins.size === 0) return;
    for (const origin of origins) if (origin !== ownerOrigin) changedAt.set(`${tabId} ${origin}`, now());
    const frames = await ports.allowedFrames(tabId);
    await Promise.all(
      frames
        // Same-origin documents hear it from the owner's polyfill (they find each other's windows).
        .filter(({ frameId, origin }) => frameId !== owner && origin !== ownerOrigin && origins.has(origin))
        .map(({ frameId }) => {
          toldAt.set(`${tabId}:${frameId}`, now());
          return ports.sendToFrame(tabId, frameId, { type: 'bridge/exposed-changed' }).catch(() => undefined);
        }),
    );
  };

  const store = async (sender: FrameSender, claimed: unknown, claimedPath: unknown) => {
    const tools = readExposedTools(claimed);
    const path = readPath(claimedPath);
    const frames = await framesOf(sender.tabId);
    // Nothing exposed before or now (a document going away that never exposed anything): nothing to decide.
    if (!frames.has(sender.frameId) && !tools?.length) return;
    const allowed = await ports.mayUseTools(sender);
    const before = frames.get(sender.frameId);
    // A frame that may not use tools exposes nothing (its polyfill refuses registerTool anyway).
    const now = allowed && tools && path && tools.length > 0 ? tools : [];
    if (now.length > 0 && path) {
      frames.set(sender.frameId, {
        origin: sender.origin,
        ...(sender.documentId ? { documentId: sender.documentId } : {}),
        path,
        tools: now,
      });
    } else frames.delete(sender.frameId);
    save(sender.tabId);
    if (JSON.stringify(before?.tools ?? []) === JSON.stringify(now) && before?.origin === (now.length ? sender.origin : before?.origin))
      return;
    const concerned = new Set([...(before?.tools ?? []), ...now].flatMap((tool) => tool.exposedTo));
    await tellConcerned(sender.tabId, sender.frameId, sender.origin, concerned);
  };

  /** Runs a change of one frame's exposures after the ones before it: a later one must never be overtaken. */
  const inTurn = (tabId: number, frameId: number, change: () => Promise<void>): Promise<void> => {
    const key = `${tabId}:${frameId}`;
    const next = (publishing.get(key) ?? Promise.resolve()).then(change).catch(() => undefined);
    publishing.set(key, next);
    void next.finally(() => publishing.get(key) === next && publishing.delete(key));
    return next;
  };

  /** The entry the caller means, if it is exposed to the caller's attested origin; else undefined. */
  const exposedFor = async (sender: FrameSender, frameId: unknown, origin: unknown, name: unknown) => {
    if (typeof frameId !== 'number' || frameId === sender.frameId) return undefined;
    const owner = (await framesOf(sender.tabId)).get(frameId);
    if (!owner || owner.origin !== origin || owner.origin === sender.origin) return undefined;
    const tool = owner.tools.find((t) => t.name === name && t.exposedTo.includes(sender.origin));
    return tool && { owner, tool };
  };

  return {
    publish: (sender, tools, path) => inTurn(sender.tabId, sender.frameId, () => store(sender, tools, path)),
    async list(sender, fromOrigins) {
      const origins = readOrigins(fromOrigins);
      if (!origins || origins.size === 0 || !(await ports.mayUseTools(sender))) return [];
      const entries: ExposedToolEntry[] = [];
      for (const [frameId, owner] of await framesOf(sender.tabId)) {
        if (frameId === sender.frameId || owner.origin === sender.origin || !origins.has(owner.origin)) continue;
        for (const tool of owner.tools) {
          if (!tool.exposedTo.includes(sender.origin)) continue;
          const { exposedTo: _exposedTo, ...data } = tool;
          entries.push({ frameId, path: owner.path, origin: owner.origin, ...data });
        }
      }
      return entries;
    },
    async run(sender, request) {
      const unknown: ExposedCallAnswer = { ok: false, name: 'UnknownError', message: UNKNOWN_TOOL_MESSAGE };
      if (typeof request.callId !== 'string' || typeof request.input !== 'string') return unknown;
      if (!(await ports.mayUseTools(sender))) return unknown;
      const found = await exposedFor(sender, request.frameId, request.origin, request.name);
      if (!found) return unknown;
      const frameId = request.frameId as number;
      const callId = `x${++counter}`;
      const callerKey = `${sender.tabId}:${sender.frameId}:${request.callId}`;
      running.set(callerKey, {
        tabId: sender.tabId,
        frameId,
        callId,
        ...(found.owner.documentId ? { documentId: found.owner.documentId } : {}),
      });
      try {
        const answer = await ports.sendToFrame(
          sender.tabId,
          frameId,
          { type: 'bridge/run-exposed', callId, name: found.tool.name, input: request.input, caller: sender.origin },
          found.owner.documentId,
        );
        return readCallAnswer(answer) ?? unknown;
      } catch {
        // The owner's document went away (navigated, removed) during the call.
        return unknown;
      } finally {
        running.delete(callerKey);
      }
    },
    cancel(sender, callId) {
      const call = running.get(`${sender.tabId}:${sender.frameId}:${String(callId)}`);
      if (!call) return;
      void ports
        .sendToFrame(call.tabId, call.frameId, { type: 'bridge/cancel-exposed', callId: call.callId }, call.documentId)
        .catch(() => undefined);
    },
    forgetFrame: (tabId, frameId) =>
      inTurn(tabId, frameId, async () => {
        const frames = await framesOf(tabId);
        const before = frames.get(frameId);
        if (!before) return;
        frames.delete(frameId);
        save(tabId);
        await tellConcerned(tabId, frameId, before.origin, new Set(before.tools.flatMap((tool) => tool.exposedTo)));
      }),
    async caughtUp(sender, loadAsked) {
      if (loadAsked === undefined) return;
      // Once the frame's tools policy is decided: until then it is told of no change (allowedFrames), so a change
      // made while it was decided is owed to it too.
      if (!(await ports.mayUseTools(sender))) return;
      const changed = changedAt.get(`${sender.tabId} ${sender.origin}`) ?? -1;
      if (changed < loadAsked || (toldAt.get(`${sender.tabId}:${sender.frameId}`) ?? -1) >= changed) return;
      toldAt.set(`${sender.tabId}:${sender.frameId}`, now());
      await ports.sendToFrame(sender.tabId, sender.frameId, { type: 'bridge/exposed-changed' }, sender.documentId).catch(() => undefined);
    },
    forgetTab(tabId) {
      tabs.delete(tabId);
      for (const key of [...changedAt.keys()]) if (key.startsWith(`${tabId} `)) changedAt.delete(key);
      for (const key of [...toldAt.keys()]) if (key.startsWith(`${tabId}:`)) toldAt.delete(key);
      void ports.store?.remove([storeKey(tabId)]).catch(() => undefined);
    },
  };
}

/** A frame's claimed exposed tools, checked and bounded; undefined when the claim is no such list. */
function readExposedTools(value: unknown): ExposedTool[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const tools: ExposedTool[] = [];
  const names = new Set<string>();
  for (const raw of value.slice(0, MAX_TOOLS)) {
    if (typeof raw !== 'object' || raw === null) return undefined;
    const t = raw as Record<string, unknown>;
    if (typeof t.name !== 'string' || typeof t.description !== 'string' || typeof t.title !== 'string') return undefined;
    if (t.name.length > 128 || names.has(t.name)) return undefined;
    const exposedTo = readOrigins(t.exposedTo);
    if (!exposedTo) return undefined;
    names.add(t.name);
    const tool: ExposedTool = {
      name: t.name,
      title: t.title.slice(0, MAX_TEXT),
      description: t.description.slice(0, MAX_TEXT),
      exposedTo: [...exposedTo],
    };
    if (typeof t.inputSchemaJson === 'string' && t.inputSchemaJson.length <= MAX_SCHEMA) tool.inputSchemaJson = t.inputSchemaJson;
    if (typeof t.annotations === 'object' && t.annotations !== null) {
      tool.annotations = Object.fromEntries(
        ['consequentialHint', 'debugging', 'readOnlyHint', 'untrustedContentHint'].map((hint) => [
          hint,
          (t.annotations as Record<string, unknown>)[hint] === true,
        ]),
      );
    }
    tools.push(tool);
  }
  return tools;
}

/** Origins as a frame claims them, serialised as the browser does; undefined when the claim is no list of them. */
function readOrigins(value: unknown): Set<string> | undefined {
  if (!Array.isArray(value)) return undefined;
  const origins = new Set<string>();
  for (const raw of value.slice(0, MAX_ORIGINS)) {
    if (typeof raw !== 'string' || raw.length > 2_000) return undefined;
    try {
      const origin = new URL(raw).origin;
      if (origin !== 'null') origins.add(origin);
    } catch {
      // Not a URL: it matches no frame.
    }
  }
  return origins;
}

function readPath(value: unknown): number[] | undefined {
  if (!Array.isArray(value) || value.length > MAX_WINDOW_PATH) return undefined;
  return value.every((i) => Number.isInteger(i) && i >= 0 && i < 10_000) ? [...(value as number[])] : undefined;
}

/** The owner's answer, checked: a compromised owner can say only how its own tool's call ended. */
function readCallAnswer(value: unknown): ExposedCallAnswer | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const a = value as Record<string, unknown>;
  if (a.ok === true && (typeof a.value === 'string' || a.value === null)) return { ok: true, value: a.value };
  if (a.ok === false && typeof a.name === 'string' && typeof a.message === 'string') {
    return { ok: false, name: a.name.slice(0, 100), message: a.message.slice(0, 2_000) };
  }
  return undefined;
}

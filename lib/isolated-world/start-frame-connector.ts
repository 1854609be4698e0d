/**
 * This frame's tools for the background: native WebMCP read here, anything else through the page's world. Injected
 * by the background (scripting.executeScript, isolated world) once the frame shows WebMCP or its tab is watched;
 * stub.ts announced the document. docs/architecture.md, "The lazy connector". `entrypoints/frame-connector.ts` starts it with
 * the isolated world's window and `browser.runtime`.
 */
import { type ConnectorChannel, DOCUMENT_PORT_NAME, type FrameChannel, type FrameReport } from '../messaging/router-messages';
import { type ChannelHandlers, handleMessage, sendMessage } from '../messaging/channel';
import { afterFrameDocument } from '../webmcp/after-frame-document';
import { isolatedKeys } from '../webmcp/connector-keys';
import { connectPageChannel } from '../webmcp/page-channel';
import { sameOriginAncestry } from '../webmcp/same-origin-ancestry';
import { answerContinuationAsks } from './answer-continuation-asks';
import { connectExposureRelay } from './connect-exposure-relay';
import { shareToolReads } from './share-tool-reads';
import { createFrameToolHost, type NativeModelContext } from './create-frame-tool-host';
import { createToolCursor } from './create-tool-cursor';
import { listenForToolsDelegation } from './listen-for-tools-delegation';
import { offerToolsDelegation } from './offer-tools-delegation';
import { serveFrameCalls } from './serve-frame-calls';

/** The slice of `browser.runtime` the bridge uses: messages to the background, and the router's to this frame. */
export interface FrameConnectorRuntime {
  /** Ports the background opens to this frame (tabs.connect). */
  onConnect?: {
    addListener(listener: (port: { name: string; onDisconnect?: { addListener(listener: () => void): void } }) => void): void;
  };
  sendMessage(message: unknown): Promise<unknown>;
  onMessage: {
    addListener(listener: (message: unknown, sender: unknown, sendResponse: (answer: unknown) => void) => boolean): void;
  };
}

/** Starts the bridge in this isolated world, once: `scope` is the world's global (where the background's keys are). */
export function startFrameConnector(window: Window & typeof globalThis, runtime: FrameConnectorRuntime, scope: object = globalThis): void {
  const { document } = window;
  // Injected again (a watched tab, and the frame's own request): the first one serves its document. The mark is the
  // document, not the world: Chromium keeps the window, and this world's global with it, when a frame's initial
  // about:blank gives way to its first same-origin document (docs/platform-notes.md), and a bridge loaded into the
  // about:blank (a delegation check or a watched tab loads every frame) must not stand for the next document.
  const started = scope as { webmcpAgentBridge?: Document };
  if (started.webmcpAgentBridge === document) return;
  started.webmcpAgentBridge = document;
  // Nothing in a frame's initial about:blank while its document loads: reading its modelContext would bind it, and
  // the coming document's bind could then kill the renderer (after-frame-document.ts). That document gets a bridge.
  afterFrameDocument(window, () => serveFrame(window, runtime, scope));
}

/** The bridge for the window's current document. */
function serveFrame(window: Window & typeof globalThis, runtime: FrameConnectorRuntime, scope: object): void {
  const { document, location } = window;
  /** Whether this bridge's document is still the window's: once replaced, the bridge says and answers nothing. */
  const live = () => window.document === document;
  const tell = <T extends keyof FrameChannel>(type: T, request: FrameChannel[T]['request']) => {
    // The browser would attest a replaced document's message as the new document's.
    if (live()) void sendMessage<FrameChannel, T>((message) => runtime.sendMessage(message), type, request).catch(() => {});
  };
  const askNextReportWait = async (report: FrameReport): Promise<number | undefined> => {
    if (!live()) return undefined;
    const answer = await sendMessage<FrameChannel, 'frame/tools'>((message) => runtime.sendMessage(message), 'frame/tools', {
      report,
    }).catch(() => undefined);
    return typeof answer?.nextReportInMs === 'number' ? answer.nextReportInMs : undefined;
  };
  // The background's Port to this document (lib/background/create-document-ports.ts) is taken and kept: it closes
  // when the document goes, the router's only news of a renderer that crashed.
  // Its closing (a stopped service worker) is also the news that nobody waits for this document's calls any more.
  const held: unknown[] = [];
  runtime.onConnect?.addListener((port) => {
    if (port.name !== DOCUMENT_PORT_NAME) return;
    held.push(port);
    port.onDisconnect?.addListener(() => {
      if (live()) calls.dropped('the background went away');
    });
  });
  // A bridge in a new document: the router forgets what the frame's earlier document offered, and a call that
  // navigated here knows its next document has come.
  tell('frame/ready', { url: location.href, needsDelegation: !sameOriginAncestry(window) });
  // The parent's token proves to the router which iframe this frame sits in (the tools delegation check).
  listenForToolsDelegation(window, (token) => tell('frame/delegation-token', { token }), live);
  // The keys the background hands this world with each load (lib/background/load-connector.ts): the page world's port
  // proves one of them.
  const channel = connectPageChannel(window, isolatedKeys(scope));
  const native = (document as unknown as { modelContext?: NativeModelContext }).modelContext;
  // Tool continuations: the page's world asks the background, through here, for tokens and to resume with one.
  void channel.then((page) =>
    page?.onAsk(
      ['token', 'resume', 'resumed'],
      answerContinuationAsks((message) => runtime.sendMessage(message)),
    ),
  );
  // The polyfill of a document cross-origin with its top holds its calls until it knows whether it may use tools
  // (the `tools` permissions policy): the background decides from what the parent's content script sees, about
  // the frame the browser attests (lib/background/create-frame-delegation.ts). Native WebMCP decides for itself.
  if (!native && !sameOriginAncestry(window)) {
    void channel.then(async (page) => {
      const allowed = await sendMessage<FrameChannel, 'frame/may-use-tools'>(
        (message) => runtime.sendMessage(message),
        'frame/may-use-tools',
        {},
      ).catch(() => false);
      await page?.request('policy', { allowed: allowed === true }).catch(() => undefined);
    });
  }
  // Tools exposed across origins (the polyfill's; native WebMCP does this itself), relayed by the background.
  const relay = native
    ? undefined
    : channel.then((page) => page && connectExposureRelay(window, page, (message) => runtime.sendMessage(message)));
  const host = channel.then((page) =>
    createFrameToolHost({
      win: window,
      doc: document,
      native,
      // The tab's same-origin frames share their reads of native's tools (each lists them all, on Chromium).
      ...(native
        ? {
            readNative: shareToolReads({
              win: window,
              native,
              treeTop: sameOriginAncestry(window) ? (window.top ?? undefined) : undefined,
            }),
          }
        : {}),
      page,
      cursor: createToolCursor(document),
      // The router answers with how long to wait before the next report (its budget would hold one sooner).
      report: (report) => askNextReportWait(report),
    }),
  );
  // The router's calls, on this document's call line: their cancels, their states, and their answers.
  const calls = serveFrameCalls(
    (request, context) => host.then((h) => h.call(request, context)),
    (message) => tell('frame/line', { message }),
  );
  // The first report once the document is parsed (so its title and h1 are there) and the page is idle, so the
  // page's own loading goes first.
  const parsed = new Promise<void>((resolve) => {
    const idle = () => window.requestIdleCallback(() => resolve(), { timeout: 500 });
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', idle, { once: true });
    else idle();
  });
  void Promise.all([host, parsed]).then(async ([h]) => tell('frame/tools', { report: await h.list() }));

  // A document going away (frame removed, navigation) takes its tools with it; one restored from the back/forward
  // cache brings them back.
  const empty = () => ({ url: location.href, origin: location.origin, page: { url: location.href, title: document.title }, tools: [] });
  window.addEventListener('pagehide', () => {
    tell('frame/tools', { report: empty() });
    if (relay) tell('frame/exposed', { tools: [], path: [] });
  });
  window.addEventListener('pageshow', (event) => {
    if (event.persisted) void host.then(async (h) => tell('frame/tools', { report: await h.list() }));
  });

  // What the router asks this frame (tabs.sendMessage reaches content scripts from the extension only).
  const handlers: ChannelHandlers<ConnectorChannel> = {
    'bridge/ping': () => channel.then((page) => ({ world: 'isolated' as const, url: location.href, mainWorld: page !== undefined })),
    'bridge/list': () => host.then((h) => h.list()),
    'bridge/line': (message) => calls.receive(message.message),
    'bridge/offer-delegation': () => offerToolsDelegation(document, () => crypto.randomUUID()),
    'bridge/exposed-changed': (message) => void relay?.then((r) => r?.['bridge/exposed-changed'](message, undefined)),
    'bridge/run-exposed': async (message) => {
      const r = await relay;
      return r ? r['bridge/run-exposed'](message, undefined) : { ok: false as const, name: 'UnknownError', message: 'No polyfill here' };
    },
    'bridge/cancel-exposed': (message) => void relay?.then((r) => r?.['bridge/cancel-exposed'](message, undefined)),
    // The call a resumeTool callback of this document answers is over: the page's world aborts its signal.
    'bridge/cancel-resume': (message) =>
      void channel.then((page) => page?.request('cancel-resume', { token: String(message.token).slice(0, 200) }).catch(() => undefined)),
  };
  runtime.onMessage.addListener((message: unknown, _sender, sendResponse) => {
    // The next document's bridge, in the same world, answers for it.
    if (!live()) return false;
    const answer = handleMessage(handlers, message, undefined);
    if (!answer) return false;
    void answer.then(sendResponse);
    return true;
  });
}

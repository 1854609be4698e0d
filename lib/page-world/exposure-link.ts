/**
 * The polyfill's way to the tools of other origins' frames (issue 23 item 4): documents of different origins cannot
 * reach each other, so what one exposes (`registerTool(tool, {exposedTo})`) and what another asks for
 * (`getTools({fromOrigins})`, `executeTool`) goes through the frame's isolated bridge to the extension's background,
 * which checks every claim against the frames the browser attests (lib/background/create-exposure-relay.ts). Never
 * through the page's window: a page's `message` listeners would hear it.
 */
import type { ExposedTool, ExposedToolEntry } from '../messaging/router-messages';
import type { PageAsk } from '../webmcp/page-channel';

/** What the polyfill asks of the extension. */
export interface ExposureLink {
  /** This document's tools exposed to other origins now (all of them). */
  publish(tools: ExposedTool[]): void;
  /** Other frames' tools of these origins exposed to this document's origin. */
  list(fromOrigins: string[]): Promise<ExposedToolEntry[]>;
  /** Runs one of them with the input as JSON text; rejects with an Error carrying the owner's name and message. */
  run(entry: ExposedToolEntry, inputJson: string, signal: AbortSignal | undefined): Promise<string | null>;
}

/** The link over the page channel's MAIN end (`ask`, lib/webmcp/page-channel.ts). */
export function createExposureLink(ask: (question: PageAsk) => Promise<unknown>): ExposureLink {
  let calls = 0;
  return {
    publish: (tools) => void ask({ op: 'exposed', tools }).catch(() => undefined),
    list: async (fromOrigins) => {
      const entries = await ask({ op: 'exposed-tools', fromOrigins });
      return Array.isArray(entries) ? (entries as ExposedToolEntry[]) : [];
    },
    run: async (entry, input, signal) => {
      const callId = String(++calls);
      const stop = () => void ask({ op: 'cancel-exposed', callId }).catch(() => undefined);
      signal?.addEventListener('abort', stop, { once: true });
      try {
        const answer = (await ask({
          op: 'run-exposed',
          callId,
          frameId: entry.frameId,
          origin: entry.origin,
          name: entry.name,
          input,
        })) as { ok?: unknown; value?: unknown; name?: unknown; message?: unknown } | null;
        if (answer?.ok === true) return typeof answer.value === 'string' ? answer.value : null;
        const error = new Error(String(answer?.message ?? ''));
        error.name = String(answer?.name ?? 'UnknownError');
        throw error;
      } finally {
        signal?.removeEventListener('abort', stop);
      }
    },
  };
}

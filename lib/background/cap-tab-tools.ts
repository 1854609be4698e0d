/**
 * Per-tab caps on what a tab's tools put into every model step. Frames are capped one by one in the page (256 tools,
 * 400,000 schema characters each), but a page can hold any number of frames: nine frames of 256 tools once put 2,304
 * tools and 12.1 MB into every step. A tab's snapshot keeps at most {@link MAX_TOOLS_PER_TAB} tools whose names,
 * titles, descriptions and input schemas weigh at most {@link MAX_TOOL_BYTES_PER_TAB} bytes (UTF-8) in all.
 *
 * The top frame's tools go first (they are the page's own), then the other frames take turns, one tool each per
 * round in frame-id order, so one flooding frame cannot crowd out another frame's tools. A tool that does not fit is
 * dropped whole (never cut), and the snapshot says how many were dropped.
 */
import type { FrameTool } from '../messaging/router-messages';

/**
 * At most this many tools per tab in a model step. 128 is also the most functions OpenAI's API takes in one request;
 * small on-device models cope with far fewer (the local adapter ranks and picks among these).
 */
export const MAX_TOOLS_PER_TAB = 128;

/** At most this many bytes (UTF-8) of tool names, titles, descriptions and input schemas per tab: 256 KiB. */
export const MAX_TOOL_BYTES_PER_TAB = 256 * 1024;

/** The weight of one tool in a model step, in UTF-8 bytes. */
export function toolBytes(tool: FrameTool): number {
  return (
    utf8Length(tool.name) + utf8Length(tool.title ?? '') + utf8Length(tool.description) + utf8Length(JSON.stringify(tool.inputSchema) ?? '')
  );
}

/** One frame's tools, in the frame's own order. */
interface FrameTools {
  frameId: number;
  tools: readonly FrameTool[];
}

/** Which tools of each frame fit the tab's caps (by frame id, indexes into its tools), and how many did not. */
interface CappedTabTools {
  kept: Map<number, Set<number>>;
  /** Tools left out by the caps. */
  dropped: number;
}

/** Applies the per-tab caps to a tab's frames (see the module comment for the order). */
export function capTabTools(
  frames: readonly FrameTools[],
  caps: { maxTools: number; maxBytes: number } = { maxTools: MAX_TOOLS_PER_TAB, maxBytes: MAX_TOOL_BYTES_PER_TAB },
): CappedTabTools {
  const kept = new Map<number, Set<number>>(frames.map((f) => [f.frameId, new Set<number>()]));
  let count = 0;
  let bytes = 0;
  let dropped = 0;
  const consider = (frameId: number, tool: FrameTool, index: number) => {
    const weight = toolBytes(tool);
    if (count >= caps.maxTools || bytes + weight > caps.maxBytes) {
      dropped++;
      return;
    }
    count++;
    bytes += weight;
    kept.get(frameId)!.add(index);
  };
  const ordered = [...frames].sort((a, b) => a.frameId - b.frameId);
  const top = ordered.filter((f) => f.frameId === 0);
  const others = ordered.filter((f) => f.frameId !== 0);
  for (const frame of top) {
    for (let index = 0; index < frame.tools.length; index++) consider(frame.frameId, frame.tools[index], index);
  }
  const rounds = Math.max(0, ...others.map((f) => f.tools.length));
  for (let index = 0; index < rounds; index++) {
    for (const frame of others) if (index < frame.tools.length) consider(frame.frameId, frame.tools[index], index);
  }
  return { kept, dropped };
}

function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * A tab's snapshot as the agent host gets it (create-tab-registry.ts): the tools of the frames that may serve them,
 * within the per-tab caps, under their model-facing names, the top page, and what was left out and why.
 */
import { isLegacyApi } from '../messaging/tab-tool-snapshot';
import { MAX_TOOL_BYTES } from '../messaging/router-messages';
import { toolIdentityKey } from '../agent/to-model-facing-names';
import { capTabTools, MAX_TOOL_BYTES_PER_TAB, MAX_TOOLS_PER_TAB } from './cap-tab-tools';
import { admittedFrameIds, type StoredFrame, type TabState } from './tab-state';
import type { DroppedTools, TabToolEntry, TabToolSnapshot } from '../messaging/tab-tool-snapshot';

/** Builds the tab's snapshot from its state. */
export function buildTabSnapshot(tabId: number, state: TabState): TabToolSnapshot {
  const { tools: owned, dropped } = selectTools(state);
  const tools: TabToolEntry[] = owned.map(({ frameId, report, index }) => {
    const tool = report.tools[index];
    return {
      name: state.names[toolIdentityKey({ frameId, origin: report.origin, name: tool.name })] ?? tool.name,
      originalName: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema,
      ...(tool.title ? { title: tool.title } : {}),
      ...(tool.annotations ? { annotations: tool.annotations } : {}),
      origin: report.origin,
      frameId,
      ...(report.documentId ? { documentId: report.documentId } : {}),
      ...(tool.schemaError ? { schemaError: tool.schemaError } : {}),
      // Only ever shown in the inspector; a frame's report is untrusted, so anything but an object is dropped.
      ...(typeof tool.outputSchema === 'object' && tool.outputSchema !== null && !Array.isArray(tool.outputSchema)
        ? { outputSchema: tool.outputSchema }
        : {}),
      ...(tool.declarative ? { declarative: true } : {}),
      ...(tool.needsConfirmation ? { needsConfirmation: true } : {}),
      ...(isLegacyApi(tool.legacyApi) ? { legacyApi: tool.legacyApi } : {}),
    };
  });
  const top = state.frames[0]?.page;
  const page = top ? { url: top.url, path: safePath(top.url), title: top.title, ...(top.h1 ? { h1: top.h1 } : {}) } : {};
  return {
    tabId,
    tools,
    page,
    revision: state.revision ?? 0,
    ...(dropped.length > 0 ? { dropped } : {}),
    ...(state.limits && Object.keys(state.limits).length > 0 ? { limits: Object.values(state.limits).filter((n) => n !== undefined) } : {}),
    ...(state.crashed ? { crashed: true as const } : {}),
  };
}

/**
 * The tools the tab's snapshot offers: admitted frames only (see admittedFrameIds), within the per-tab caps
 * (cap-tab-tools.ts), in frame-id order; and what was left out, with why.
 */
export function selectTools(state: TabState): {
  tools: { frameId: number; report: StoredFrame; index: number }[];
  dropped: DroppedTools[];
} {
  const admitted = admittedFrameIds(state);
  const capped = capTabTools(admitted.map((frameId) => ({ frameId, tools: state.frames[frameId].tools })));
  const { kept } = capped;
  const overCaps = capped.dropped + admitted.reduce((n, frameId) => n + (state.frames[frameId].cut ?? 0), 0);
  const tools = admitted.flatMap((frameId) =>
    state.frames[frameId].tools.flatMap((_, index) =>
      kept.get(frameId)?.has(index) ? [{ frameId, report: state.frames[frameId], index }] : [],
    ),
  );
  const dropped: DroppedTools[] = [];
  const undelegated = Object.entries(state.frames)
    .filter(([frameId]) => state.delegated[frameId] === false)
    .reduce((n, [, frame]) => n + frame.tools.length, 0);
  if (undelegated > 0) {
    dropped.push({
      count: undelegated,
      reason: 'not-delegated',
      note: `${plural(undelegated, 'tool')} from embedded frames of other sites left out: the page did not allow them to offer tools (allow="tools").`,
    });
  }
  const oversized = admitted.reduce((n, frameId) => n + (state.frames[frameId].oversized ?? 0), 0);
  if (oversized > 0) {
    dropped.push({
      count: oversized,
      reason: 'too-large',
      note: `${plural(oversized, 'tool')} left out: a tool may weigh at most ${MAX_TOOL_BYTES / 1024} KB (its name, title, description and input schema), and ${oversized === 1 ? 'this one weighs' : 'these weigh'} more.`,
    });
  }
  if (overCaps > 0) {
    dropped.push({
      count: overCaps,
      reason: 'tab-cap',
      note: `${plural(overCaps, 'tool')} left out: the agent takes at most ${MAX_TOOLS_PER_TAB} tools and ${MAX_TOOL_BYTES_PER_TAB / 1024} KB of tool descriptions from one tab.`,
    });
  }
  return { tools, dropped };
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function safePath(url: string): string | undefined {
  try {
    return new URL(url).pathname;
  } catch {
    return undefined;
  }
}

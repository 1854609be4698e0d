/**
 * One frame's tools as the isolated world lists them for the router (create-frame-tool-host.ts): native
 * `document.modelContext`'s read here, everything else through the MAIN-world channel, each entry read as data and
 * held to the frame's limits (one tool's weight, all tools' weight, the schemas' budget, the count).
 */
import type { FrameReport, FrameTool } from '../messaging/router-messages';
import { MAX_TOOL_BYTES } from '../messaging/router-messages';
import { isLegacyApi } from '../messaging/tab-tool-snapshot';
import { jsonSizeUpTo } from '../shared/json-size-up-to';
import type { PageChannel, PageToolInfo } from '../webmcp/page-channel';
import { toolOwnerWindow } from '../webmcp/tool-owner-window';
import { readPageContext } from './read-page-context';
import type { ReadLoad } from './read-pause-ms';
import { entryChars, isOversizedEntry, readToolEntry } from './read-tool-entry';

/** The native ModelContext as the isolated world sees it. */
export interface NativeModelContext extends EventTarget {
  getTools(): Promise<unknown[]>;
  executeTool(tool: unknown, input: unknown, options?: { signal?: AbortSignal }): Promise<unknown>;
}

/** Where a frame's tools come from. */
interface FrameToolSource {
  win: Window & typeof globalThis;
  doc: Document;
  native?: NativeModelContext;
  /** The read of native's tools (default `native.getTools()`): shared by the tab's same-origin frames (share-tool-reads.ts). */
  readNative?: () => Promise<unknown[]>;
  page?: PageChannel;
}

/** A frame's list: its report, and native's own entries by name (what a call of a native tool runs). */
interface FrameToolList {
  report: FrameReport;
  nativeTools: Map<string, unknown>;
  /**
   * How many frames' tools native's answer carried (at least 1): Chromium's getTools() lists the same-origin frames'
   * tools too, so one read costs the page (and the browser) all of theirs, and every frame of the tree reads them.
   */
  framesRead: number;
  /** What the read carried, every frame's entries included (what it should have cost: read-pause-ms.ts). */
  load: ReadLoad;
}

const MAX_TOOLS_PER_FRAME = 256;
/** Schemas of one frame, in characters: keeps a hostile or careless page from filling session storage. */
const SCHEMA_BUDGET_PER_FRAME = 400_000;
/**
 * All of one frame's tools, in characters, at most: past it tools are left out (counted as oversized). Twice what
 * a whole tab offers the model (cap-tab-tools.ts), and under the router's limit on one report (1 MB).
 */
const TOOL_CHARS_PER_FRAME = 512 * 1024;

/** Lists the frame's tools now. */
export async function listFrameTools(source: FrameToolSource): Promise<FrameToolList> {
  const { win, doc } = source;
  const tools: FrameTool[] = [];
  const seen = new Set<string>();
  const nativeTools = new Map<string, unknown>();
  const load: ReadLoad = { entries: 0, chars: 0 };
  /** Tools left out as heavier than one tool may be (counted in the report, for the panel's note). */
  const native = await readNativeTools(source, { tools, seen, nativeTools, load });
  const heavy = native.heavy + (await readPageTools(source.page, { tools, seen, load }));
  const { kept, oversized } = withinToolLimits(tools);
  let schemaChars = 0;
  for (const tool of kept) {
    schemaChars += JSON.stringify(tool.inputSchema).length;
    if (schemaChars > SCHEMA_BUDGET_PER_FRAME) {
      tool.inputSchema = { type: 'object', properties: {} };
      tool.schemaError = `inputSchema dropped: this frame's schemas exceed ${SCHEMA_BUDGET_PER_FRAME} characters in all`;
    }
  }
  // Native lists no word on where a tool comes from: a form of the same name stands for it (a call checks).
  for (const tool of kept) {
    const form = nativeTools.has(tool.name) ? toolForm(doc, tool.name) : undefined;
    if (form) {
      tool.declarative = true;
      if (!form.hasAttribute('toolautosubmit')) tool.needsConfirmation = true;
    }
  }
  const report: FrameReport = {
    url: win.location.href,
    origin: win.location.origin,
    page: readPageContext(doc),
    tools: kept.slice(0, MAX_TOOLS_PER_FRAME),
    ...(oversized + heavy > 0 ? { oversized: oversized + heavy } : {}),
  };
  return { report, nativeTools, framesRead: Math.max(1, native.frames), load };
}

/** The `<form toolname>` named `name` in the document, if there is one. */
export function toolForm(doc: Document, name: string): HTMLFormElement | undefined {
  for (const form of Array.from(doc.querySelectorAll('form[toolname][tooldescription]'))) {
    if (form.getAttribute('toolname') === name) return form as HTMLFormElement;
  }
  return undefined;
}

/** Where a read puts what it found: the frame's tools, the names taken, and what the read carried. */
interface ReadInto {
  tools: FrameTool[];
  seen: Set<string>;
  load: ReadLoad;
}

/**
 * Native's tools of this frame, into `tools` (and their entries into `nativeTools`); returns how many were too heavy,
 * and how many frames' tools the answer carried.
 */
async function readNativeTools(
  source: FrameToolSource,
  { tools, seen, nativeTools, load }: ReadInto & { nativeTools: Map<string, unknown> },
): Promise<{ heavy: number; frames: number }> {
  if (!source.native) return { heavy: 0, frames: 0 };
  let heavy = 0;
  const owners = new Set<unknown>();
  try {
    const read = source.readNative ?? (() => source.native!.getTools());
    for (const raw of await read()) {
      if (typeof raw === 'object' && raw !== null) owners.add(toolOwnerWindow(raw) ?? source.win);
      load.entries++;
      load.chars += entryChars(raw);
      // Native getTools() also lists same-origin frames' tools: keep this frame's own (their frame lists the rest).
      if (!ownedBy(raw, source.win)) continue;
      if (isOversizedEntry(raw)) {
        heavy++;
        continue;
      }
      const tool = readToolEntry(raw);
      if (!tool || seen.has(tool.name)) continue;
      seen.add(tool.name);
      nativeTools.set(tool.name, raw);
      tools.push(tool);
    }
  } catch {
    // A native list that fails reads as empty; the page's own implementation may still answer below.
  }
  return { heavy, frames: owners.size };
}

/** The page world's tools (the polyfill's, a page's own), into `tools`; returns how many were too heavy. */
async function readPageTools(page: PageChannel | undefined, { tools, seen, load }: ReadInto): Promise<number> {
  if (!page) return 0;
  let heavy = 0;
  try {
    const infos = await page.request('list');
    for (const info of Array.isArray(infos) ? (infos as PageToolInfo[]) : []) {
      if (typeof info !== 'object' || info === null) continue;
      load.entries++;
      load.chars += entryChars({ description: info.description, inputSchema: info.inputSchemaJson });
      if (info.oversized === true || isOversizedEntry({ description: info.description, inputSchema: info.inputSchemaJson })) {
        heavy++;
        continue;
      }
      const tool = readToolEntry({
        name: info.name,
        title: info.title,
        description: info.description,
        inputSchema: info.inputSchemaJson,
        outputSchema: info.outputSchemaJson,
        annotations: info.annotations,
      });
      if (!tool || seen.has(tool.name)) continue;
      if (typeof info.inputSchemaError === 'string') tool.schemaError = info.inputSchemaError.slice(0, 500);
      if (isLegacyApi(info.legacyApi)) tool.legacyApi = info.legacyApi;
      if (info.form === 'submits' || info.form === 'waits') {
        tool.declarative = true;
        if (info.form === 'waits') tool.needsConfirmation = true;
      }
      seen.add(tool.name);
      tools.push(tool);
    }
  } catch {
    // The page's side failed; native tools (if any) still count.
  }
  return heavy;
}

/**
 * The tools within the limits on one tool's weight (MAX_TOOL_BYTES, in characters here: the router counts UTF-8
 * bytes) and on all of a frame's, in order; how many were left out. Schemas are measured only up to the limit.
 */
function withinToolLimits(tools: FrameTool[]): { kept: FrameTool[]; oversized: number } {
  const kept: FrameTool[] = [];
  let total = 0;
  for (const tool of tools) {
    const weight = tool.name.length + (tool.title?.length ?? 0) + tool.description.length + jsonSizeUpTo(tool.inputSchema, MAX_TOOL_BYTES);
    if (weight > MAX_TOOL_BYTES || total + weight > TOOL_CHARS_PER_FRAME) continue;
    total += weight;
    kept.push(tool);
  }
  return { kept, oversized: tools.length - kept.length };
}

/** Whether a native tool entry belongs to this window (one that names no window is taken as this frame's). */
function ownedBy(raw: unknown, win: Window): boolean {
  if (typeof raw !== 'object' || raw === null) return false;
  const owner = toolOwnerWindow(raw);
  return owner === undefined || owner === win;
}

import type { AgentMessage, PageContext, ToolDescriptor, WebAgent } from '../agent/types';
import type { CallRecord } from '../messaging/call-record';
import type { TranscriptFormat } from '../messaging/agent-messages';
import { buildTranscript, type TranscriptSource } from '../transcript/build-transcript';
import { secretPathsOf } from '../transcript/secret-paths-of';
import { transcriptToMarkdown } from '../transcript/transcript-to-markdown';

/** What an export is asked for: who answered, and what must not leave. */
export interface TranscriptExportOptions {
  adapter: TranscriptSource['adapter'];
  /** Exact secret strings (the saved keys): replaced everywhere. */
  secrets: string[];
  /** Argument names per tool the person marked secret, on top of what the schemas mark. */
  secretFields?: Record<string, string[]>;
}

/** What the tab holds that an export reads. */
interface TabForExport {
  messages: readonly AgentMessage[];
  /** The page's tools now: their schemas' secret paths cover calls stored before calls kept their own. */
  tools: readonly Pick<ToolDescriptor, 'name' | 'inputSchema'>[];
  page: PageContext | undefined;
  /** The site's agent that applies to the page, if any. */
  agent: Pick<WebAgent, 'id'> | undefined;
  timeline: readonly CallRecord[];
}

/**
 * A tab's conversation as a file to download, JSON or Markdown, named after the moment it was exported. Secrets are
 * masked by buildTranscript: the paths each call kept, the paths the page's tools mark now, the fields the person
 * marked, and every occurrence of `options.secrets`.
 *
 * @param format The export's format.
 * @param options Who answered, and what must not leave.
 * @param tab The conversation and what the tab knows now.
 */
export function exportTabTranscript(
  format: TranscriptFormat,
  options: TranscriptExportOptions,
  tab: TabForExport,
): { text: string; fileName: string } {
  // On top of the paths each call kept: the page's tools now (for calls stored before paths were kept) and the person's marks.
  const fields = new Map(tab.tools.map((tool) => [tool.name, secretPathsOf(tool.inputSchema)]));
  for (const [name, names] of Object.entries(options.secretFields ?? {}))
    fields.set(name, [...(fields.get(name) ?? []), ...names.map((n) => [n])]);
  const top = tab.page;
  const page = top?.url ? { url: top.url, ...(top.title ? { title: top.title } : {}) } : undefined;
  const transcript = buildTranscript(tab.messages, {
    source: {
      adapter: options.adapter,
      ...(tab.agent ? { agent: { id: tab.agent.id } } : {}),
      ...(page ? { page } : {}),
    },
    timeline: tab.timeline,
    secrets: { values: options.secrets, fields },
  });
  const stamp = transcript.exportedAt.slice(0, 19).replace(/[:T]/g, '-');
  return format === 'json'
    ? { text: `${JSON.stringify(transcript, null, 2)}\n`, fileName: `webmcp-agent-transcript-${stamp}.json` }
    : { text: transcriptToMarkdown(transcript), fileName: `webmcp-agent-transcript-${stamp}.md` };
}

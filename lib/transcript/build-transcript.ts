import { parseToolError } from '../agent/tool-error-codes';
import { toolOutputText } from '../agent/tool-output-text';
import type { AgentMessage, AgentPart } from '../agent/types';
import type { CallRecord } from '../messaging/call-record';
import { maskSecretPaths } from './mask-secret-paths';
import { redactSecrets, type SecretsToRedact } from './redact-secrets';

/** Who answered: the adapter, its model, and the site's agent. */
export interface TranscriptSource {
  adapter: { kind: string; label: string; model?: string };
  /** The site profile's agent, when one applied. */
  agent?: { id?: string; name?: string };
  page?: { url: string; title?: string };
}

/** A tool call in a transcript. */
interface TranscriptToolCall {
  type: 'tool';
  id: string;
  name: string;
  input: unknown;
  state: string;
  output?: string;
  error?: string;
  errorCode?: string;
  /** From the call timeline, when the host still had it. */
  startedAt?: string;
  durationMs?: number;
  /** A sub-agent's nested run. */
  agent?: { id: string; messages: TranscriptMessage[] };
}

export type TranscriptPart = { type: 'text'; text: string } | { type: 'reasoning'; text: string } | TranscriptToolCall;

export interface TranscriptMessage {
  role: 'user' | 'assistant';
  parts: TranscriptPart[];
}

/** The JSON export of a conversation. */
export interface Transcript {
  format: 'webmcp-agent-transcript';
  version: 1;
  exportedAt: string;
  source: TranscriptSource;
  messages: TranscriptMessage[];
}

/**
 * The conversation as an export: messages, tool calls with their arguments, results, timings and error codes, and
 * which adapter, model and agent answered. Secrets never leave: the values in `secrets` (the API key) are replaced
 * everywhere; in every call's input, at any depth, the paths the call kept (`secretPaths`, from the schema it was
 * made under) and the paths `secrets.fields` names for its tool are masked, their values then redacted wherever
 * else they appear. Provider metadata and the kept paths themselves are left out.
 */
export function buildTranscript(
  messages: readonly AgentMessage[],
  options: { source: TranscriptSource; timeline?: readonly CallRecord[]; secrets: SecretsToRedact; now?: Date },
): Transcript {
  const timing = new Map((options.timeline ?? []).map((r) => [r.id, r]));
  const fields = options.secrets.fields;
  const typedSecrets: string[] = [];
  // Masks one call's input, and keeps what it took out to redact it from everything else afterwards.
  const mask = (part: ToolPart) => {
    const { masked, values } = maskSecretPaths(part.input, [...(part.secretPaths ?? []), ...(fields?.get(part.name) ?? [])]);
    typedSecrets.push(...values);
    return masked;
  };
  const convert = (list: readonly AgentMessage[]): TranscriptMessage[] =>
    list.map((m) => ({ role: m.role, parts: m.parts.map((p) => toPart(p, timing, mask, convert)) }));
  const transcript: Transcript = {
    format: 'webmcp-agent-transcript',
    version: 1,
    exportedAt: (options.now ?? new Date()).toISOString(),
    source: options.source,
    messages: convert(messages),
  };
  return redactSecrets(transcript, { values: [...options.secrets.values, ...typedSecrets] });
}

type ToolPart = Extract<AgentPart, { type: 'tool' }>;

function toPart(
  part: AgentPart,
  timing: Map<string, CallRecord>,
  mask: (part: ToolPart) => unknown,
  convert: (list: readonly AgentMessage[]) => TranscriptMessage[],
): TranscriptPart {
  if (part.type === 'text') return { type: 'text', text: part.text };
  if (part.type === 'reasoning') return { type: 'reasoning', text: part.text };
  const record = timing.get(part.id);
  const output = part.output ? toolOutputText(part.output) : undefined;
  const errorCode = part.error ? parseToolError(part.error)?.code : undefined;
  return {
    type: 'tool',
    id: part.id,
    name: part.name,
    input: mask(part),
    state: part.state,
    ...(output !== undefined ? { output } : {}),
    ...(part.error ? { error: part.error } : {}),
    ...(errorCode ? { errorCode } : {}),
    ...(record ? { startedAt: new Date(record.at).toISOString() } : {}),
    ...(record?.durationMs !== undefined ? { durationMs: record.durationMs } : {}),
    ...(part.agent ? { agent: { id: part.agent.id, messages: convert(part.agent.messages) } } : {}),
  };
}

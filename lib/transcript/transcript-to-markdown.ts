import type { Transcript, TranscriptMessage, TranscriptPart } from './build-transcript';

/**
 * A transcript as Markdown a person can read: who answered, then each turn, with tool calls as quoted blocks of
 * their input and output. Page and model text is put inside code fences longer than any backtick run in it, so it
 * cannot close its fence and turn into Markdown of its own.
 */
export function transcriptToMarkdown(transcript: Transcript): string {
  const { source } = transcript;
  const lines = [`# Conversation${source.page?.title ? ` on ${oneLine(source.page.title)}` : ''}`, ''];
  if (source.page) lines.push(`- Page: ${oneLine(source.page.url)}`);
  lines.push(`- Agent: ${oneLine(source.adapter.label)}${source.adapter.model ? ` (${oneLine(source.adapter.model)})` : ''}`);
  if (source.agent) lines.push(`- Site agent: ${oneLine(source.agent.name ?? source.agent.id ?? '')}`);
  lines.push(`- Exported: ${transcript.exportedAt}`, '');
  lines.push(...messagesToMarkdown(transcript.messages, 2));
  return `${lines.join('\n').trimEnd()}\n`;
}

function messagesToMarkdown(messages: TranscriptMessage[], level: number): string[] {
  const lines: string[] = [];
  for (const message of messages) {
    lines.push(`${'#'.repeat(level)} ${message.role === 'user' ? 'You' : 'Agent'}`, '');
    for (const part of message.parts) lines.push(...partToMarkdown(part, level), '');
  }
  return lines;
}

function partToMarkdown(part: TranscriptPart, level: number): string[] {
  if (part.type === 'text') return [fence(part.text, 'text')];
  if (part.type === 'reasoning') return ['Reasoning:', '', fence(part.text, 'text')];
  const timing = part.durationMs !== undefined ? ` in ${part.durationMs} ms` : '';
  const code = part.errorCode ? ` [${part.errorCode}]` : '';
  const where = part.tab ? ` (tab ${part.tab.tabId}, ${oneLine(part.tab.site)})` : '';
  const lines = [
    `**Tool call** \`${oneLine(part.name).replace(/`/g, "'")}\`${where}: ${part.state}${code}${timing}`,
    '',
    'Input:',
    '',
    fence(json(part.input), 'json'),
  ];
  if (part.output !== undefined) lines.push('', 'Output:', '', fence(part.output, 'text'));
  if (part.error) lines.push('', 'Error:', '', fence(part.error, 'text'));
  if (part.agent)
    lines.push('', `Sub-agent ${oneLine(part.agent.id)}:`, '', ...messagesToMarkdown(part.agent.messages, Math.min(level + 1, 6)));
  return lines;
}

function fence(text: string, lang: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const marks = '`'.repeat(longest + 1);
  return `${marks}${lang}\n${text}\n${marks}`;
}

function json(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? 'null';
  } catch {
    return String(value);
  }
}

function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').slice(0, 300);
}

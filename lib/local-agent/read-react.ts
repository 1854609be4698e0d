import { parseJson } from './parse-json';
import type { ParsedToolCall, ToolCallFormat } from './parsed-tool-call';
import { snippet } from './snippet';

/**
 * The reply being read, as the ReAct reader sees it: where calls, reasoning and the answer go, and the rules for
 * names and arguments that every format shares.
 */
export interface ReactReply {
  calls: ParsedToolCall[];
  unreadable: string[];
  reasoning: string[];
  finalAnswer: boolean;
  /** Set in ReAct mode: the prose is this, not what remains of the text. */
  answer: string | undefined;
  resolveName(written: string, knownOnly?: boolean): string | undefined;
  shapeInput(name: string, input: unknown): unknown;
  readPython(src: string, format: ToolCallFormat, raw: string, onlyKnown: boolean): ParsedToolCall[] | null;
  toCalls(value: unknown, format: ToolCallFormat, raw: string, lenient: boolean): ParsedToolCall[] | null;
}

/** Text ReAct: labels at the start of lines, any case, maybe bold; stop at an invented Observation. */
export function readReact(reply: ReactReply, src: string): string {
  const sections: { label: string; lines: string[] }[] = [];
  let preamble = '';
  for (const line of src.split('\n')) {
    const match = REACT_LABEL.exec(line);
    if (match) {
      const label = match[1].toLowerCase().replace(/[\s_]+/g, ' ');
      if (label === 'observation') break;
      sections.push({ label, lines: [match[2]] });
    } else if (sections.length) sections[sections.length - 1].lines.push(line);
    else preamble += `${line}\n`;
  }
  const body = (label: string) => {
    const section = sections.find((s) => s.label === label);
    return section ? stripEmphasis(section.lines.join('\n').trim()) : undefined;
  };
  for (const s of sections) if (s.label === 'thought') reply.reasoning.push(stripEmphasis(s.lines.join('\n')));
  if (preamble.trim()) reply.reasoning.unshift(preamble);
  const final = body('final answer');
  if (final !== undefined) {
    reply.finalAnswer = true;
    reply.answer = final;
    return '';
  }
  const action = body('action');
  reply.answer = '';
  if (action === undefined) return '';
  const raw = sections
    .filter((s) => s.label === 'action' || s.label === 'action input')
    .map((s) => s.lines.join('\n'))
    .join('\n');
  const call = readAction(reply, action, body('action input'), raw);
  if (call) reply.calls.push(call);
  else reply.unreadable.push(snippet(raw));
  return '';
}

function readAction(reply: ReactReply, action: string, input: string | undefined, raw: string): ParsedToolCall | undefined {
  const firstLine = action
    .split('\n')[0]
    .trim()
    .replace(/^`+|`+$/g, '')
    .trim();
  // Action: {"name": …, "arguments": …}
  if (firstLine.startsWith('{') || firstLine.startsWith('[')) {
    const value = parseJson(action, true);
    return value === undefined ? undefined : reply.toCalls(value, 'react', raw, true)?.[0];
  }
  // Action: search(query="x") / search(France) / search({"query": "x"})
  const paren = /^([A-Za-z_][\w.-]*)\s*\(([\s\S]*)\)\s*$/.exec(firstLine);
  if (paren) {
    const name = reply.resolveName(paren[1]);
    if (name === undefined) return undefined;
    const inner = paren[2].trim();
    if (inner.startsWith('{')) {
      const value = parseJson(inner, true);
      return value === undefined ? undefined : { name, input: reply.shapeInput(name, value), format: 'react', raw };
    }
    const python = reply.readPython(firstLine, 'react', raw, false);
    if (python?.length) return python[0];
    return { name, input: reply.shapeInput(name, unquote(inner)), format: 'react', raw };
  }
  // Action: search[green tea] (the original ReAct paper's style)
  const bracket = /^([A-Za-z_][\w.-]*)\s*\[([\s\S]*)\]\s*$/.exec(firstLine);
  if (bracket) {
    const name = reply.resolveName(bracket[1]);
    return name === undefined ? undefined : { name, input: reply.shapeInput(name, unquote(bracket[2])), format: 'react', raw };
  }
  // Action: search  +  Action Input: {...} | plain text
  if (!/^[A-Za-z_][\w.-]*$/.test(firstLine)) return undefined;
  const name = reply.resolveName(firstLine);
  if (name === undefined) return undefined;
  const text = (input ?? '').replace(/^```\w*\n?|```$/g, '').trim();
  if (text === '' || /^(none|null|n\/a|\{\})$/i.test(text)) return { name, input: {}, format: 'react', raw };
  if (text.startsWith('{') || text.startsWith('[')) {
    const value = parseJson(text, true);
    if (value === undefined) return undefined;
    return { name, input: reply.shapeInput(name, value), format: 'react', raw };
  }
  return { name, input: reply.shapeInput(name, unquote(text)), format: 'react', raw };
}

const REACT_LABEL =
  /^\s*(?:[-*]\s+)?(?:\*\*|__)?\s*(thought|action[ _]input|action|final[ _]answer|observation)\s*(?:\*\*|__)?\s*:\s*(?:\*\*|__)?\s?(.*)$/i;

/** Whether the text uses ReAct labels for an action or a final answer (then it is read as ReAct, not as bare calls). */
export function hasReactLabels(src: string): boolean {
  for (const line of src.split('\n')) {
    const match = REACT_LABEL.exec(line);
    if (match && /^(action|final)/i.test(match[1])) return true;
  }
  return false;
}

function stripEmphasis(text: string): string {
  return text.replace(/^(?:\*\*|__)\s*|\s*(?:\*\*|__)$/g, '').trim();
}

function unquote(text: string): string {
  const t = text.trim();
  if (t.length >= 2 && ((t[0] === '"' && t.endsWith('"')) || (t[0] === "'" && t.endsWith("'")))) return t.slice(1, -1);
  return t;
}

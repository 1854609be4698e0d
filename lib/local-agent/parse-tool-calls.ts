import { parseJson } from './parse-json';
import { parsePythonCalls } from './parse-python-calls';
import type { ParsedToolCall, ToolCallFormat } from './parsed-tool-call';
import { hasReactLabels, type ReactReply, readReact } from './read-react';
import { snippet } from './snippet';
import type { JSONSchema } from '../agent/types';
import { isRecord } from '../shared/is-record';

/** A reply taken apart. */
export interface ParsedReply {
  /** The prose to show: calls, reasoning and control tokens removed. For ReAct, the Final Answer. */
  text: string;
  /** <think> blocks and ReAct Thoughts: kept for the record, not shown. */
  reasoning?: string;
  /** The calls, in the order written. */
  calls: ParsedToolCall[];
  /** Snippets that are clearly meant as calls but cannot be read (the loop asks for them again). */
  unreadable: string[];
  /** The reply used ReAct labels and gave a Final Answer. */
  finalAnswer?: boolean;
}

/** What the parser needs to know of a tool: its name, and its parameters to place bare values. */
type ToolLike = { name: string; inputSchema?: JSONSchema };

/** Longest reply read; the rest is ignored (no model step writes more). */
const MAX_REPLY_CHARS = 100_000;

/**
 * Reads the tool calls out of a small model's reply, in every format they really write:
 * Qwen/Hermes `<tool_call>{json}</tool_call>` (after a `<think>` block or not), LFM2
 * `<|tool_call_start|>[f(a="x")]<|tool_call_end|>`, Llama JSON with "parameters" (with or without
 * `<|python_tag|>`), Phi-4-mini `functools[…]`, the inline JSON reply format, fenced ```json and ```tool_call
 * blocks, and text ReAct (Thought / Action / Action Input / Final Answer; labels in **bold** or any case; an
 * invented `Observation:` and everything after it ignored; Final Answer over Action over Thought).
 *
 * Several calls per reply and prose around them are fine. Broken JSON is repaired where the intent is clear
 * (inside call markers, or an object that names a tool); otherwise the snippet is reported in `unreadable`.
 * Never throws, and never returns a call whose name is not written in the text.
 */
export function parseToolCalls(text: string, tools: readonly ToolLike[] = []): ParsedReply {
  const reply = new Reply(tools);
  let src = typeof text === 'string' ? text.slice(0, MAX_REPLY_CHARS) : '';
  const original = src;
  try {
    src = reply.takeReasoning(src);
    src = cutAtTurnEnd(src);
    src = reply.takeTagged(src, '<tool_call>', '</tool_call>', 'hermes');
    src = reply.takeTagged(src, '<|tool_call_start|>', '<|tool_call_end|>', 'lfm2');
    src = reply.takeTagged(src, '<|tool_call|>', '<|/tool_call|>', 'phi');
    src = reply.takeBracketed(src, /functools\s*(?=\[)/g, 'phi');
    src = reply.takeBracketed(src, /\[TOOL_CALLS\]\s*(?=\[)/g, 'mistral');
    src = reply.takePythonTag(src);
    src = reply.takeFences(src);
    if (reply.calls.length === 0 && reply.unreadable.length === 0 && hasReactLabels(src)) {
      src = readReact(reply, src);
    } else {
      src = reply.takeBareJson(src);
      if (reply.calls.length === 0 && reply.unreadable.length === 0) src = reply.takeBarePython(src);
    }
  } catch {
    // Defensive: a parser bug must not crash the loop. What was read so far stands; the rest is prose.
  }
  return reply.result(src, original);
}

class Reply implements ReactReply {
  calls: ParsedToolCall[] = [];
  unreadable: string[] = [];
  reasoning: string[] = [];
  finalAnswer = false;
  /** Set in ReAct mode: the prose is this, not what remains of the text. */
  answer: string | undefined;

  constructor(private readonly tools: readonly ToolLike[]) {}

  result(rest: string, original: string): ParsedReply {
    // A name that only exists after decoding escapes ("get\u005fcart") or joining strings is not what the model
    // wrote: never run a call the text does not plainly name.
    const written = looseName(original);
    for (const call of this.calls) if (!written.includes(looseName(call.name))) this.unreadable.push(snippet(call.raw));
    this.calls = this.calls.filter((call) => written.includes(looseName(call.name)));
    const text = cleanProse(this.answer ?? rest);
    const reasoning = this.reasoning
      .map((r) => r.trim())
      .filter(Boolean)
      .join('\n\n');
    return {
      text,
      ...(reasoning ? { reasoning } : {}),
      calls: this.calls,
      unreadable: this.unreadable,
      ...(this.finalAnswer ? { finalAnswer: true } : {}),
    };
  }

  /** <think>…</think>, a lone </think> (the template opened it), or an unclosed <think> (cut off mid-thought). */
  takeReasoning(src: string): string {
    let out = src.replace(/<think>([\s\S]*?)<\/think>/gi, (_m, body: string) => {
      this.reasoning.push(body);
      return '';
    });
    const close = out.search(/<\/think>/i);
    if (close !== -1) {
      this.reasoning.push(out.slice(0, close));
      out = out.slice(close + '</think>'.length);
    }
    const open = out.search(/<think>/i);
    if (open !== -1) {
      this.reasoning.push(out.slice(open + '<think>'.length));
      out = out.slice(0, open);
    }
    return out;
  }

  /** Spans between an open and a close marker; the close may be missing when generation stopped on it. */
  takeTagged(src: string, open: string, close: string, format: ToolCallFormat): string {
    if (!src.includes(open)) return src;
    let out = '';
    let at = 0;
    for (;;) {
      const start = src.indexOf(open, at);
      if (start === -1) break;
      out += src.slice(at, start);
      const bodyStart = start + open.length;
      const end = src.indexOf(close, bodyStart);
      const nextOpen = src.indexOf(open, bodyStart);
      let bodyEnd: number;
      if (end !== -1 && (nextOpen === -1 || end < nextOpen)) {
        bodyEnd = end;
        at = end + close.length;
      } else {
        bodyEnd = nextOpen === -1 ? src.length : nextOpen;
        at = bodyEnd;
      }
      this.readBody(src.slice(bodyStart, bodyEnd), format, src.slice(start, at));
    }
    return out + src.slice(at);
  }

  /** `functools[…]` and `[TOOL_CALLS][…]`: a marker then a bracketed JSON list. */
  takeBracketed(src: string, marker: RegExp, format: ToolCallFormat): string {
    let out = '';
    let at = 0;
    for (const match of src.matchAll(marker)) {
      const start = match.index ?? 0;
      if (start < at) continue;
      const open = start + match[0].length;
      const end = matchBracket(src, open);
      const body = src.slice(open, end);
      out += src.slice(at, start);
      at = end;
      this.readBody(body, format, src.slice(start, end));
    }
    return out + src.slice(at);
  }

  /** Llama 3.x: `<|python_tag|>` then one or more JSON calls, separated by `;` or new lines. */
  takePythonTag(src: string): string {
    const tag = '<|python_tag|>';
    const start = src.indexOf(tag);
    if (start === -1) return src;
    const end = src.indexOf('<|eom_id|>', start);
    const body = src.slice(start + tag.length, end === -1 ? src.length : end);
    const before = this.calls.length;
    const rest = this.takeBareJson(body, 'llama', true);
    if (this.calls.length === before && body.trim()) {
      // Llama also writes Python here (brave_search.call(query="…")): read it as a call when it is one.
      const python = this.takeBarePython(body, 'llama');
      if (this.calls.length === before && python.trim()) this.unreadable.push(snippet(body));
      return src.slice(0, start);
    }
    // What is left between calls is their `;` separators.
    return src.slice(0, start) + (/^[\s;,]*$/.test(rest) ? '' : rest);
  }

  /** ```json, ```tool_call, ```tool_code, ```python and bare ``` blocks that hold calls; other blocks stay prose. */
  takeFences(src: string): string {
    return src.replace(/```[ \t]*([\w-]*)[^\n]*\n?([\s\S]*?)(?:```|$)/g, (whole, lang: string, body: string) => {
      const kind = lang.toLowerCase();
      if (['tool_call', 'tool_calls', 'function_call', 'tool'].includes(kind)) {
        this.readBody(body, 'fenced', whole);
        return '';
      }
      if (kind === '' || kind === 'json' || kind === 'json5' || kind === 'javascript') {
        const value = parseJson(body, true);
        const calls = value === undefined ? null : this.toCalls(value, 'fenced', whole, false);
        if (calls?.length) {
          this.calls.push(...calls);
          return '';
        }
        if (value === undefined && looksLikeCall(body)) {
          this.unreadable.push(snippet(body));
          return '';
        }
        return whole;
      }
      if (kind === 'tool_code' || kind === 'python' || kind === 'py') {
        const calls = this.readPython(body, 'fenced', whole, true);
        if (calls?.length) {
          this.calls.push(...calls);
          return '';
        }
      }
      return whole;
    });
  }

  /**
   * JSON objects (or lists of them) in the text that are calls: `{"name": …, "arguments"|"parameters": …}`, or an
   * object naming a known tool. Objects that are not calls stay prose untouched.
   */
  takeBareJson(src: string, format: ToolCallFormat = 'json', inMarker = false): string {
    let out = '';
    let at = 0;
    let i = 0;
    while (i < src.length) {
      const ch = src[i];
      if (ch !== '{' && ch !== '[') {
        i++;
        continue;
      }
      const end = matchBracket(src, i);
      const candidate = src.slice(i, end);
      const callish = looksLikeCall(candidate);
      if (!callish && !(inMarker && ch === '{')) {
        // Skip the whole value: a JSON result echoed back is prose, and its inner braces need no second look.
        i = ch === '{' ? end : i + 1;
        continue;
      }
      const value = parseJson(candidate, callish || inMarker);
      const calls = value === undefined ? null : this.toCalls(value, format, candidate, inMarker);
      if (calls?.length) {
        out += src.slice(at, i);
        this.calls.push(...calls);
        at = end;
        i = end;
      } else if (value === undefined && callish && ch === '{') {
        out += src.slice(at, i);
        this.unreadable.push(snippet(candidate));
        at = end;
        i = end;
      } else {
        i = ch === '{' ? end : i + 1;
      }
    }
    return out + src.slice(at);
  }

  /** A reply that is nothing but `f(a="x")` or `[f(a="x"), …]` of known tools (markers stripped by the pipeline). */
  takeBarePython(src: string, format: ToolCallFormat = 'python'): string {
    const trimmed = src.trim();
    if (!/^\[?\s*[A-Za-z_][\w.-]*\s*\(/.test(trimmed) || !/\)\s*\]?$/.test(trimmed)) return src;
    const calls = this.readPython(trimmed, format, trimmed, true);
    if (!calls?.length) return src;
    this.calls.push(...calls);
    return '';
  }

  /** The inside of a call marker: JSON (object or list), Qwen3-Coder XML, or Python calls. */
  private readBody(body: string, format: ToolCallFormat, raw: string): void {
    const inner = body
      .trim()
      .replace(/^```[\w-]*\s*\n?|```\s*$/g, '')
      .trim();
    if (inner === '') {
      this.unreadable.push(snippet(raw));
      return;
    }
    if (inner.includes('<function=')) {
      const calls = this.readQwenXml(inner, raw);
      if (calls.length) this.calls.push(...calls);
      else this.unreadable.push(snippet(raw));
      return;
    }
    if (inner.startsWith('{') || (inner.startsWith('[') && /^\[\s*[{\]]/.test(inner))) {
      const value = parseJson(inner, true);
      const calls = value === undefined ? null : this.toCalls(value, format, raw, true);
      if (calls?.length) this.calls.push(...calls);
      else this.unreadable.push(snippet(raw));
      return;
    }
    const python = this.readPython(inner, format, raw, false);
    if (python?.length) this.calls.push(...python);
    else this.unreadable.push(snippet(raw));
  }

  private readQwenXml(body: string, raw: string): ParsedToolCall[] {
    const calls: ParsedToolCall[] = [];
    for (const fn of body.matchAll(/<function=([^>\s]+)>([\s\S]*?)(?:<\/function>|$)/g)) {
      const name = this.resolveName(fn[1]);
      if (name === undefined) continue;
      const input: Record<string, unknown> = {};
      for (const p of fn[2].matchAll(/<parameter=([^>\s]+)>([\s\S]*?)(?:<\/parameter>|(?=<parameter=)|$)/g)) {
        const value = p[2].trim();
        input[p[1]] = parseJson(value, false) ?? value;
      }
      calls.push({ name, input, format: 'hermes', raw });
    }
    return calls;
  }

  /** Python-style calls; `onlyKnown` keeps calls to tools on the list only (for text without markers). */
  readPython(src: string, format: ToolCallFormat, raw: string, onlyKnown: boolean): ParsedToolCall[] | null {
    const parsed = parsePythonCalls(src);
    if (!parsed) return null;
    const calls: ParsedToolCall[] = [];
    for (const call of parsed) {
      const name = this.resolveName(call.name, onlyKnown);
      if (name === undefined) return null;
      let input: unknown = call.kwargs;
      if (call.args.length === 1 && Object.keys(call.kwargs).length === 0 && isRecord(call.args[0])) {
        input = call.args[0]; // f({"query": "x"})
      } else if (call.args.length) {
        const params = paramNames(this.tool(name)?.inputSchema);
        if (call.args.length > params.length) {
          if (call.args.length !== 1 || Object.keys(call.kwargs).length) return null;
          input = this.shapeInput(name, call.args[0]);
        } else {
          const named: Record<string, unknown> = {};
          call.args.forEach((value, k) => {
            named[params[k]] = value;
          });
          input = { ...named, ...call.kwargs };
        }
      }
      calls.push({ name, input, format, raw });
    }
    return calls;
  }

  /**
   * Calls in a parsed JSON value. `lenient` (inside call markers): any object with a name is a call. Otherwise the
   * object must also carry arguments, or name a tool on the list, so that a JSON result echoed back is not a call.
   */
  toCalls(value: unknown, format: ToolCallFormat, raw: string, lenient: boolean): ParsedToolCall[] | null {
    if (Array.isArray(value)) {
      if (value.length === 0) return null;
      const calls: ParsedToolCall[] = [];
      for (const item of value) {
        const one = this.toCalls(item, format, raw, lenient);
        if (!one) return null;
        calls.push(...one);
      }
      return calls;
    }
    if (!isRecord(value)) return null;
    if (Array.isArray(value.tool_calls)) return this.toCalls(value.tool_calls, format, raw, lenient);
    if (isRecord(value.function)) {
      return this.toCalls({ ...value.function, ...(value.arguments ? { arguments: value.arguments } : {}) }, format, raw, lenient);
    }
    const rawName = [value.name, value.tool, value.tool_name, value.function, value.action].find((n) => typeof n === 'string') as
      | string
      | undefined;
    if (rawName === undefined) return null;
    const argKey = ['arguments', 'parameters', 'args', 'input', 'action_input', 'params'].find((k) => k in value);
    const name = this.resolveName(rawName, !lenient && argKey === undefined);
    if (name === undefined) return null;
    if (!lenient && argKey === undefined && Object.keys(value).length > 1 && !('type' in value && value.type === 'function')) {
      // {"name": "Blue shoe", "price": 3} happens to name a tool: data, not a call.
      return null;
    }
    let input: unknown = argKey === undefined ? {} : value[argKey];
    if (typeof input === 'string') {
      const trimmed = input.trim();
      input = trimmed.startsWith('{') ? (parseJson(trimmed, true) ?? input) : input;
    }
    if (input === null || input === undefined) input = {};
    return [{ name, input: this.shapeInput(name, input), format, raw }];
  }

  /** A bare value for a tool that takes one parameter becomes that parameter; anything else is kept as written. */
  shapeInput(name: string, input: unknown): unknown {
    if (isRecord(input)) return input;
    const params = paramNames(this.tool(name)?.inputSchema);
    if (params.length === 1) return { [params[0]]: input };
    if (params.length > 1) {
      const required = requiredNames(this.tool(name)?.inputSchema);
      if (required.length === 1) return { [required[0]]: input };
    }
    if (params.length === 0 && (input === '' || input === undefined)) return {};
    return input;
  }

  private tool(name: string): ToolLike | undefined {
    return this.tools.find((t) => t.name === name);
  }

  /**
   * The tool's own spelling for a name the model wrote: exact, or differing only in case, `-`/`_`, or a
   * `functions.` prefix. With `knownOnly`, names of no tool give undefined; otherwise they pass through
   * (the loop answers "unknown tool").
   */
  resolveName(written: string, knownOnly = false): string | undefined {
    const name = written.trim().replace(/^(?:functions|tools|default_api)\./, '');
    if (!/^[\w.-]{1,128}$/.test(name)) return undefined;
    if (this.tools.some((t) => t.name === name)) return name;
    const key = looseName(name);
    const loose = this.tools.find((t) => looseName(t.name) === key);
    if (loose) return loose.name;
    return knownOnly ? undefined : name;
  }
}

/** Cut at tokens that end the model's turn, and at a tool response it invented. */
function cutAtTurnEnd(src: string): string {
  const stops = [
    '<|im_end|>',
    '<|eot_id|>',
    '<|endoftext|>',
    '<|end|>',
    '<|im_start|>',
    '<tool_response>',
    '<|tool_response_start|>',
    '</s>',
    '<end_of_turn>',
  ];
  let end = src.length;
  for (const stop of stops) {
    const at = src.indexOf(stop);
    if (at !== -1 && at < end) end = at;
  }
  return src.slice(0, end);
}

function cleanProse(text: string): string {
  return text
    .replace(/<\|[a-z_/]+\|>/gi, '')
    .replace(/<\/?tool_call>/g, '')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Whether a JSON-ish snippet names a function: an object with a name-like key. */
function looksLikeCall(text: string): boolean {
  return /^\s*[[{]/.test(text) && /["']?\b(?:name|tool|tool_name|function|tool_calls|action)["']?\s*:/.test(text.slice(0, 300));
}

function looseName(name: string): string {
  return name.toLowerCase().replace(/-/g, '_');
}

/**
 * The index just past the bracket matching the one at `open` (strings and escapes respected), or the end of the
 * text when it never closes (generation stopped mid-call).
 */
function matchBracket(src: string, open: number): number {
  const stack: string[] = [];
  let quote: string | null = null;
  for (let i = open; i < src.length; i++) {
    const ch = src[i];
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = null;
      continue;
    }
    if (ch === '"') quote = ch;
    else if (ch === '{') stack.push('}');
    else if (ch === '[') stack.push(']');
    else if (ch === '}' || ch === ']') {
      if (stack.pop() !== ch) return i + 1;
      if (stack.length === 0) return i + 1;
    }
  }
  return src.length;
}

function paramNames(schema: JSONSchema | undefined): string[] {
  return isRecord(schema) && isRecord(schema.properties) ? Object.keys(schema.properties) : [];
}

function requiredNames(schema: JSONSchema | undefined): string[] {
  return isRecord(schema) && Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : [];
}

/**
 * One call read from a model's reply, and the format it was written in: what the reply parser (parse-tool-calls.ts)
 * and the ReAct reader it hands text to (read-react.ts) both produce, kept apart so neither imports the other for it.
 */

/** Where a call was found: which of the formats small models write. */
export type ToolCallFormat =
  | 'hermes' // <tool_call>{json}</tool_call> (Qwen, Hermes, Granite, SmolLM3), also Qwen3-Coder's <function=…> inside
  | 'lfm2' // <|tool_call_start|>[f(a="x")]<|tool_call_end|>
  | 'phi' // functools[…] or <|tool_call|>…<|/tool_call|>
  | 'llama' // {"name": …, "parameters": …}, maybe after <|python_tag|>
  | 'mistral' // [TOOL_CALLS][…]
  | 'fenced' // ```json / ```tool_call / ```tool_code blocks
  | 'json' // a bare JSON call in the reply (the inline reply format)
  | 'python' // a bare f(a="x") or [f(a="x")] of a known tool
  | 'react'; // Action: / Action Input:

/** One call read from a reply. `name` is the tool's own spelling when it matched one loosely. */
export interface ParsedToolCall {
  name: string;
  /** The arguments as written: normally an object; a bare value when the model wrote one the tool cannot take. */
  input: unknown;
  format: ToolCallFormat;
  /** The text the call was read from. */
  raw: string;
}

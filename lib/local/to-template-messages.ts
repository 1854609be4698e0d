import type { ChatTurn } from '../agent/local-provider';
import type { ToolDescriptor } from '../agent/types';
import type { LocalModelSpec } from './model-catalog';

type TemplateTool = { type: 'function'; function: { name: string; description: string; parameters: unknown } };

/** A tool as chat templates take it (the OpenAI function shape). */
export function toTemplateTool(tool: ToolDescriptor): TemplateTool {
  return { type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.inputSchema } };
}

/**
 * The turns as the model's template wants them. 'structured' templates (Qwen3, Qwen3.5) render `tool_calls`
 * themselves. 'pythonic' templates (LFM) render only the content, so earlier calls are written into it as the model
 * writes them, `<|tool_call_start|>[f(a="x")]<|tool_call_end|>`: the model sees its own calls, and the prompt extends
 * the cached tokens of the reply that made them.
 */
export function toTemplateMessages(
  turns: readonly ChatTurn[],
  style: LocalModelSpec['historyStyle'] = 'structured',
): Record<string, unknown>[] {
  return turns.map((t) => {
    if (style !== 'pythonic' || !t.tool_calls?.length) return { ...t };
    const { tool_calls: calls, ...rest } = t;
    const written = calls.map((c) => pythonCall(c.function.name, c.function.arguments)).join(', ');
    return { ...rest, content: `${t.content}<|tool_call_start|>[${written}]<|tool_call_end|>` };
  });
}

/** `name(key="value", n=3)`: a call as LFM models write it (Python literals; strings with JSON's escapes). */
function pythonCall(name: string, args: Record<string, unknown>): string {
  return `${name}(${Object.entries(args)
    .map(([key, value]) => `${key}=${pythonLiteral(value)}`)
    .join(', ')})`;
}

function pythonLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'None';
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(pythonLiteral).join(', ')}]`;
  if (typeof value === 'object') {
    return `{${Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${JSON.stringify(k)}: ${pythonLiteral(v)}`)
      .join(', ')}}`;
  }
  return JSON.stringify(String(value));
}

import type { ToolDescriptor } from './types';

/**
 * What a model reads as a tool's description: the page's description and, when the tool declares an outputSchema,
 * the compact shape of its result (ToolDescriptor.returns, summarizeOutputSchema), so the model can plan on the
 * result before it calls. Both adapters use it, the on-device one after cutting the description to its budget.
 */
export function describeToolForModel(description: string, returns: ToolDescriptor['returns']): string {
  if (!returns) return description;
  const text = description.trimEnd();
  if (text === '') return `Returns: ${returns}`;
  return `${text}${/[.!?…]$/.test(text) ? '' : '.'} Returns: ${returns}`;
}

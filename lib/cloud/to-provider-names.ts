import type { ToolDescriptor } from '../agent/types';
import { toProviderToolName } from './to-provider-tool-name';

/**
 * The provider-safe name of each page tool, keyed by the page's name, as the tool set names them: in the tools'
 * order, a clash getting a numeric suffix (toProviderToolName), a second tool of the same page name left out.
 */
export function toProviderNames(tools: readonly ToolDescriptor[]): Map<string, string> {
  const names = new Map<string, string>();
  const taken = new Set<string>();
  for (const descriptor of tools) {
    if (!descriptor || typeof descriptor.name !== 'string' || names.has(descriptor.name)) continue;
    const providerName = toProviderToolName(descriptor.name, taken);
    taken.add(providerName);
    names.set(descriptor.name, providerName);
  }
  return names;
}

/**
 * Chrome's published WebMCP character budgets. Source: "WebMCP tool security", section "Set character budgets",
 * https://developer.chrome.com/docs/ai/webmcp/secure-tools (published 2026-06-09, last updated 2026-09-01), which
 * recommends concise descriptions and outputs, to stay clear of agents' safeguards: 500 characters per tool
 * description, 150 per parameter description, 30 per tool name and parameter name, and 1,500 per tool output. The
 * same figures are in Google's build-webmcp-tools skill (GoogleChromeLabs/webmcp-tools, references/tool-design.md,
 * "Character & Token Budgets": output ≤ 1,500 characters, about 400 tokens).
 *
 * They are recommendations, not limits this extension enforces: the content script keeps names up to 128 and
 * descriptions up to 4,000 characters (lib/isolated-world/read-tool-entry.ts), and results up to 20,000 (cap-tool-output.ts).
 */
export const WEBMCP_BUDGETS = {
  toolName: 30,
  parameterName: 30,
  toolDescription: 500,
  parameterDescription: 150,
  toolOutput: 1_500,
} as const;

/** Where the budgets come from, for findings and reports. */
export const WEBMCP_BUDGETS_SOURCE = 'https://developer.chrome.com/docs/ai/webmcp/secure-tools';

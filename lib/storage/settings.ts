/**
 * The extension's settings: what the person chose on the options page and in the side panel.
 * The shapes and defaults live here; createSettingsStore (settings-store.ts) reads and writes them.
 * The API keys are deliberately absent from Settings: only their masked forms are, so a view can never leak it.
 */

import type { GrantCaller } from './grant-caller';

/** Which adapter answers in the side panel. */
export type AgentMode = 'local' | 'cloud';

/**
 * When a tool call waits for the person's Allow. Whatever the policy, a tool the page marks consequentialHint asks
 * every time (no policy and no "Always" grant skips it):
 * - 'non-read-only': every tool not marked readOnlyHint (the default, as in Google's reference extension: most
 *   pages annotate nothing, so a policy that trusts the absence of a mark would ask almost never);
 * - 'consequential': only tools the page marks consequentialHint;
 * - 'never': nothing else.
 */
export type ConfirmationPolicy = 'consequential' | 'non-read-only' | 'never';

/** The cloud providers the extension speaks to, through the AI SDK. */
export type CloudProvider = 'openai' | 'openai-compatible' | 'anthropic';

/** The providers in the order the options page lists them, with their names for people. */
export const CLOUD_PROVIDERS: readonly { id: CloudProvider; label: string }[] = [
  { id: 'openai', label: 'OpenAI' },
  { id: 'openai-compatible', label: 'OpenAI-compatible' },
  { id: 'anthropic', label: 'Anthropic' },
];

/** The confirmation policies in the order the options page lists them, with their wording. */
export const CONFIRMATION_POLICIES: readonly { id: ConfirmationPolicy; label: string; description: string }[] = [
  {
    id: 'non-read-only',
    label: 'Ask before anything that is not read-only',
    description:
      'Recommended. Every tool the site does not mark as read-only waits for your Allow. Most sites mark nothing, so this is what keeps the agent from acting unasked.',
  },
  {
    id: 'consequential',
    label: 'Ask only before consequential actions',
    description:
      'Only tools the site marks as consequential (buying, sending, deleting) wait for your Allow. A site that marks nothing gets no questions.',
  },
  {
    id: 'never',
    label: 'Ask only when the site insists',
    description: 'The agent runs tools without asking, except those the site marks as consequential. Only for sites you trust completely.',
  },
];

/** The on-device model's settings. */
export interface LocalPreferences {
  /** The catalog model the person picked; the adapter's recommended one when unset. */
  modelId?: string;
  /** Origin the model files are downloaded from (same layout as huggingface.co). */
  modelHost: string;
}

/** The cloud provider's settings, without the key. */
export interface CloudPreferences {
  provider: CloudProvider;
  /** The endpoint; required for 'openai-compatible', an override for the others. No trailing slash. */
  baseURL?: string;
  /** The provider's model id, for example "gpt-5-mini" or "claude-sonnet-4-5". */
  model?: string;
  /** How much the model thinks before answering, for models that can; the provider's default when unset. */
  reasoning?: CloudReasoning;
  /** OpenAI only: the Responses API (default) or Chat Completions, for proxies that only speak the latter. */
  openaiApi?: OpenAIApi;
}

/** Reasoning effort levels (lib/cloud maps them to each provider's own setting). */
export type CloudReasoning = 'provider-default' | 'none' | 'low' | 'medium' | 'high';

/** The levels in the order the options page lists them. */
export const CLOUD_REASONING_LEVELS: readonly { id: CloudReasoning; label: string }[] = [
  { id: 'provider-default', label: 'Provider default' },
  { id: 'none', label: 'None' },
  { id: 'low', label: 'Low' },
  { id: 'medium', label: 'Medium' },
  { id: 'high', label: 'High' },
];

/** Which OpenAI API cloud mode calls. */
export type OpenAIApi = 'responses' | 'chat';

/** What a view may know about the stored API key. */
export interface ApiKeyState {
  saved: boolean;
  /** For display only, for example "sk-…abcd". */
  masked?: string;
}

/**
 * Per-site settings: the extension's form of the page agent (req.agent, docs/architecture.md § The adapter contract). Applied to pages whose
 * origin is exactly this one.
 */
export interface SiteProfile {
  /** A web origin: scheme, host and port, for example "https://shop.example". */
  origin: string;
  /** "About this site": what the site is and how its tools fit together. Added to the system prompt. */
  instructions: string;
  /** Model steps per message, 1 to 20; the adapter's default when unset. */
  maxSteps?: number;
  /** The only tools the agent may use on this site; every tool when unset. */
  tools?: string[];
  /** Smaller agents the site's agent can hand a task to, each as a delegate_to_<id> tool. */
  subAgents?: SubAgentProfile[];
}

/**
 * A site's sub-agent: an agent with its own instructions, tools and steps that the site's agent hands a task to
 * (delegate_to_<id>). Delegation nests at most 2 deep (MAX_DELEGATION_DEPTH in lib/agent/select-tools.ts).
 */
export interface SubAgentProfile {
  /** Lower-case letters, digits, "_" and "-", starting with a letter, at most 40 characters: the tool is delegate_to_<id>. */
  id: string;
  /** What a person calls it, for example "Checkout". */
  name: string;
  /** What it does and how: its system prompt's "About this site". */
  instructions: string;
  /** The only tools it may use; every tool when unset. */
  tools?: string[];
  /** Model steps per task, 1 to 20; the adapter's default when unset. */
  maxSteps?: number;
  /** Ids of other sub-agents of the same site it may hand a task to in turn. */
  subAgents?: string[];
}

/** "Always on this site": the person allowed this tool on this origin, for this caller, without asking again. */
export interface ToolGrant {
  origin: string;
  tool: string;
  /** Who may call it unasked: the in-browser agent or one desktop agent (grant-caller.ts). */
  caller: GrantCaller;
  /** When it was granted (ms since the epoch). */
  grantedAt: number;
}

/** Everything a view shows, in one snapshot. */
export interface Settings {
  mode: AgentMode;
  local: LocalPreferences;
  cloud: CloudPreferences;
  /** Per provider: a key is only ever sent to the provider it was saved for. */
  apiKeys: Record<CloudProvider, ApiKeyState>;
  confirmation: ConfirmationPolicy;
  sites: SiteProfile[];
  grants: ToolGrant[];
}

/** Where on-device models come from unless the person sets a mirror. */
const DEFAULT_MODEL_HOST = 'https://huggingface.co';

/** Bounds of a site's max steps (the cloud loop's own default is 20). */
export const MAX_STEPS_RANGE = { min: 1, max: 20 } as const;

/** Most sub-agents one site may have: each adds a tool to the site agent's list. */
export const MAX_SUB_AGENTS = 8;

/** Long enough for a site's tool map; short enough to leave the small models room in their context. */
export const MAX_INSTRUCTIONS_LENGTH = 4000;

/** What a fresh install starts with. */
export const DEFAULT_SETTINGS: Settings = {
  mode: 'local',
  local: { modelHost: DEFAULT_MODEL_HOST },
  cloud: { provider: 'openai' },
  apiKeys: { openai: { saved: false }, 'openai-compatible': { saved: false }, anthropic: { saved: false } },
  confirmation: 'non-read-only',
  sites: [],
  grants: [],
};

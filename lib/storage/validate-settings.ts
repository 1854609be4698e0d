import { MAX_DELEGATION_DEPTH, SUB_AGENT_ID_PATTERN } from '../agent/select-tools';
import { type Parsed, parseHttpUrl } from './parse-http-url';
import { parseOrigin } from './parse-origin';
import {
  CLOUD_PROVIDERS,
  CLOUD_REASONING_LEVELS,
  CONFIRMATION_POLICIES,
  type CloudPreferences,
  type CloudProvider,
  type CloudReasoning,
  type ConfirmationPolicy,
  DEFAULT_SETTINGS,
  MAX_INSTRUCTIONS_LENGTH,
  MAX_STEPS_RANGE,
  MAX_SUB_AGENTS,
  type SiteProfile,
  type SubAgentProfile,
} from './settings';

/** Either the normalised value, or one message per field that is wrong (keyed by the field's name). */
type Validation<T> = { ok: true; value: T } | { ok: false; errors: Record<string, string> };

/** A site profile as a form holds it: numbers and lists may still be text. */
export interface SiteProfileInput {
  origin: string;
  instructions: string;
  /** A number, digits, or empty for the adapter's default. */
  maxSteps?: number | string;
  /** Tool names, or one text with names separated by commas, spaces or lines; empty for every tool. */
  tools?: readonly string[] | string;
  /** The site's sub-agents, as the form holds them. */
  subAgents?: readonly SubAgentInput[];
}

/** A sub-agent as a form holds it: numbers and lists may still be text. */
interface SubAgentInput {
  id: string;
  name: string;
  instructions: string;
  maxSteps?: number | string;
  tools?: readonly string[] | string;
  /** Ids of the site's other sub-agents it may hand tasks to, as a list or one text. */
  subAgents?: readonly string[] | string;
}

/** Cloud settings as a form holds them. */
export interface CloudPreferencesInput {
  provider: string;
  baseURL?: string;
  model?: string;
  /** A CloudReasoning id; empty or 'provider-default' for the provider's default. */
  reasoning?: string;
  /** 'responses' or 'chat' (OpenAI only; ignored for the others). */
  openaiApi?: string;
}

// Control characters never belong in a one-line setting; they would also corrupt an HTTP header or prompt.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point.
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Form and stored values may be anything: what is not a string reads as empty. */
function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** Validates and normalises a site profile. Messages are keyed origin, instructions, maxSteps, tools. */
export function validateSiteProfile(input: SiteProfileInput): Validation<SiteProfile> {
  const errors: Record<string, string> = {};
  const origin = parseOrigin(text(input.origin));
  if (!origin.ok) errors.origin = origin.error;

  const instructions = text(input.instructions).trim();
  if (instructions.length > MAX_INSTRUCTIONS_LENGTH) {
    errors.instructions = `“About this site” is ${instructions.length} characters long; keep it under ${MAX_INSTRUCTIONS_LENGTH} so small models still have room.`;
  }

  let maxSteps: number | undefined;
  const rawSteps = typeof input.maxSteps === 'string' ? input.maxSteps.trim() : input.maxSteps;
  if (rawSteps !== undefined && rawSteps !== '') {
    const steps = typeof rawSteps === 'number' ? rawSteps : /^\d+$/.test(rawSteps) ? Number(rawSteps) : Number.NaN;
    if (!Number.isInteger(steps) || steps < MAX_STEPS_RANGE.min || steps > MAX_STEPS_RANGE.max) {
      errors.maxSteps = `Max steps must be a whole number from ${MAX_STEPS_RANGE.min} to ${MAX_STEPS_RANGE.max}, or empty for the default.`;
    } else {
      maxSteps = steps;
    }
  }

  const names = (typeof input.tools === 'string' ? input.tools.split(/[\s,]+/) : Array.isArray(input.tools) ? input.tools : [])
    .map((name) => text(name).trim())
    .filter((name) => name !== '');
  const badName = names.find((name) => name.length > 128 || /\s/.test(name) || CONTROL.test(name));
  if (badName !== undefined) {
    errors.tools = `“${badName.slice(0, 40)}” is not a tool name: names have no spaces and at most 128 characters.`;
  }
  const tools = [...new Set(names)];
  const subAgents = validateSubAgents(input.subAgents, errors);

  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    value: {
      origin: (origin as { value: string }).value,
      instructions,
      ...(maxSteps !== undefined ? { maxSteps } : {}),
      ...(tools.length > 0 ? { tools } : {}),
      ...(subAgents.length > 0 ? { subAgents } : {}),
    },
  };
}

/**
 * Validates a site's sub-agents, adding messages to `errors` keyed `subAgents.<index>.<field>` (id, name,
 * instructions, maxSteps, tools, subAgents) or `subAgents` for the list. Refuses ids that cannot name a tool,
 * repeated ids, hand-offs to unknown sub-agents or to itself, cycles, and chains deeper than delegation goes.
 */
function validateSubAgents(input: unknown, errors: Record<string, string>): SubAgentProfile[] {
  const list = Array.isArray(input) ? (input as SubAgentInput[]) : [];
  if (list.length > MAX_SUB_AGENTS) {
    errors.subAgents = `A site can have at most ${MAX_SUB_AGENTS} sub-agents; remove ${list.length - MAX_SUB_AGENTS}.`;
    return [];
  }
  const out: SubAgentProfile[] = [];
  const at = new Map<string, number>();
  list.forEach((raw, index) => {
    const item = raw && typeof raw === 'object' ? raw : ({} as SubAgentInput);
    const key = (field: string) => `subAgents.${index}.${field}`;
    const id = text(item.id).trim();
    if (id === '') errors[key('id')] = 'Give the sub-agent an id, for example checkout.';
    else if (!SUB_AGENT_ID_PATTERN.test(id)) {
      errors[key('id')] =
        `“${id.slice(0, 40)}” cannot be an id: use lower-case letters, digits, “_” and “-”, starting with a letter, at most 40 characters (the agent sees it as the tool delegate_to_<id>).`;
    } else if (at.has(id)) errors[key('id')] = `Another sub-agent already has the id “${id}”: each needs its own.`;
    else at.set(id, index);

    const name = text(item.name).trim();
    if (name === '') errors[key('name')] = 'Give the sub-agent a name people understand, for example Checkout.';
    else if (name.length > 80 || CONTROL.test(name)) errors[key('name')] = 'A name is one line of at most 80 characters.';

    const instructions = text(item.instructions).trim();
    if (instructions.length > MAX_INSTRUCTIONS_LENGTH) {
      errors[key('instructions')] =
        `The instructions are ${instructions.length} characters long; keep them under ${MAX_INSTRUCTIONS_LENGTH}.`;
    }

    let maxSteps: number | undefined;
    const rawSteps = typeof item.maxSteps === 'string' ? item.maxSteps.trim() : item.maxSteps;
    if (rawSteps !== undefined && rawSteps !== '') {
      const steps = typeof rawSteps === 'number' ? rawSteps : /^\d+$/.test(rawSteps) ? Number(rawSteps) : Number.NaN;
      if (!Number.isInteger(steps) || steps < MAX_STEPS_RANGE.min || steps > MAX_STEPS_RANGE.max) {
        errors[key('maxSteps')] =
          `Max steps must be a whole number from ${MAX_STEPS_RANGE.min} to ${MAX_STEPS_RANGE.max}, or empty for the default.`;
      } else maxSteps = steps;
    }

    const tools = [...new Set(listOf(item.tools))];
    const badTool = tools.find((tool) => tool.length > 128 || /\s/.test(tool) || CONTROL.test(tool));
    if (badTool !== undefined)
      errors[key('tools')] = `“${badTool.slice(0, 40)}” is not a tool name: names have no spaces and at most 128 characters.`;

    const delegates = [...new Set(listOf(item.subAgents))];
    out.push({
      id,
      name,
      instructions,
      ...(maxSteps !== undefined ? { maxSteps } : {}),
      ...(tools.length > 0 ? { tools } : {}),
      ...(delegates.length > 0 ? { subAgents: delegates } : {}),
    });
  });

  // Hand-offs: to known sub-agents, never back to itself, and no deeper than delegation goes. The site's agent
  // reaches every sub-agent (depth 1), so a sub-agent's hand-off is depth 2 and may go no further.
  out.forEach((agent, index) => {
    const key = `subAgents.${index}.subAgents`;
    if (errors[key]) return;
    const unknown = agent.subAgents?.find((id) => !at.has(id));
    if (unknown !== undefined) {
      errors[key] = `There is no sub-agent “${unknown.slice(0, 40)}” on this site: hand tasks only to the ones listed here.`;
      return;
    }
    if (agent.subAgents?.includes(agent.id)) {
      errors[key] = `“${agent.name || agent.id}” cannot hand tasks to itself.`;
      return;
    }
    const cycle = findCycle(agent.id, out);
    if (cycle) {
      errors[key] = `These sub-agents would hand tasks around in a circle: ${cycle.join(' → ')}. Remove one of the hand-offs.`;
      return;
    }
    const deeper = agent.subAgents?.find((id) => (out.find((a) => a.id === id)?.subAgents?.length ?? 0) > 0);
    if (deeper !== undefined) {
      errors[key] =
        `“${deeper}” hands tasks on itself, and sub-agents nest at most ${MAX_DELEGATION_DEPTH} deep (the site’s agent, then a sub-agent, then one more). Hand to a sub-agent that does not delegate.`;
    }
  });
  return out;
}

/** A circle of hand-offs through `start` ("a → b → a"), or undefined. */
function findCycle(start: string, agents: readonly SubAgentProfile[]): string[] | undefined {
  const visit = (id: string, path: string[]): string[] | undefined => {
    for (const next of agents.find((a) => a.id === id)?.subAgents ?? []) {
      if (next === start) return [...path, next];
      if (path.includes(next)) continue;
      const found = visit(next, [...path, next]);
      if (found) return found;
    }
    return undefined;
  };
  return visit(start, [start]);
}

/** Names as a list, or one text separated by commas, spaces or lines; blanks dropped. */
function listOf(value: unknown): string[] {
  const items = typeof value === 'string' ? value.split(/[\s,]+/) : Array.isArray(value) ? value : [];
  return items.map((item) => text(item).trim()).filter((item) => item !== '');
}

/** Validates and normalises the cloud settings (not the key). Messages are keyed provider, baseURL, model. */
export function validateCloudPreferences(input: CloudPreferencesInput): Validation<CloudPreferences> {
  const errors: Record<string, string> = {};
  const provider = CLOUD_PROVIDERS.find((p) => p.id === input.provider)?.id;
  if (!provider) errors.provider = `Choose a provider: ${CLOUD_PROVIDERS.map((p) => p.label).join(', ')}.`;

  let baseURL: string | undefined;
  const rawBase = text(input.baseURL).trim();
  if (rawBase === '') {
    if (provider === 'openai-compatible') {
      errors.baseURL = 'An OpenAI-compatible provider needs its base URL, for example http://localhost:11434/v1 for Ollama.';
    }
  } else {
    const parsed = parseBaseURL(rawBase);
    if (parsed.ok) baseURL = parsed.value;
    else errors.baseURL = parsed.error;
  }

  const model = text(input.model).trim();
  if (model.length > 200 || CONTROL.test(model) || /\s/.test(model)) {
    errors.model = 'A model id has no spaces or line breaks and at most 200 characters, for example gpt-5-mini.';
  }

  const reasoning = text(input.reasoning) || 'provider-default';
  if (!CLOUD_REASONING_LEVELS.some((l) => l.id === reasoning)) {
    errors.reasoning = `Choose a reasoning level: ${CLOUD_REASONING_LEVELS.map((l) => l.label).join(', ')}.`;
  }
  const openaiApi = text(input.openaiApi) || 'responses';
  if (openaiApi !== 'responses' && openaiApi !== 'chat') errors.openaiApi = 'Choose Responses or Chat Completions.';

  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    value: {
      provider: provider as CloudProvider,
      ...(baseURL ? { baseURL } : {}),
      ...(model ? { model } : {}),
      ...(reasoning !== 'provider-default' ? { reasoning: reasoning as CloudReasoning } : {}),
      // Only OpenAI has two APIs; the default is not stored, so "unset" and "responses" are one state.
      ...(provider === 'openai' && openaiApi === 'chat' ? { openaiApi: 'chat' as const } : {}),
    },
  };
}

/** A provider endpoint: http(s), no query or fragment (the SDK appends paths to it), no trailing slash. */
export function parseBaseURL(input: string): Parsed<string> {
  const text = input.trim();
  const parsed = parseHttpUrl(text, {
    aNoun: 'a URL',
    noun: 'URL',
    subject: 'The base URL',
    example: 'https://api.example.com/v1',
    credentials: 'Put the key in the API key field, not in the base URL.',
  });
  if (!parsed.ok) return parsed;
  const url = parsed.value;
  if (url.search || url.hash) {
    return { ok: false, error: 'The base URL must not have a query (?…) or fragment (#…): the provider’s paths are appended to it.' };
  }
  return { ok: true, value: url.href.replace(/\/+$/, '') };
}

/**
 * Validates an API key as pasted: surrounding white space is dropped; anything that cannot travel in an
 * HTTP header (spaces inside, line breaks, non-ASCII such as the "…" of a masked key) is refused.
 */
export function validateApiKey(input: string): Parsed<string> {
  const key = input.trim();
  if (key === '') return { ok: false, error: 'Paste your API key first.' };
  if (key.includes('…')) {
    return { ok: false, error: 'That is the masked key shown here, not the key itself: paste the full key from your provider.' };
  }
  if (/\s/.test(key) || CONTROL.test(key)) {
    return { ok: false, error: 'The API key has spaces or line breaks in it: paste only the key.' };
  }
  if (!/^[\u0021-\u007e]+$/.test(key)) {
    return {
      ok: false,
      error: 'The API key has characters no provider uses (only plain letters, digits and symbols): paste the key itself.',
    };
  }
  if (key.length > 1000) return { ok: false, error: 'That is too long to be an API key: paste only the key.' };
  return { ok: true, value: key };
}

/** Validates the on-device model host: an http(s) origin serving files in huggingface.co's layout. */
export function validateModelHost(input: string): Parsed<string> {
  return parseOrigin(input, 'https://huggingface.co');
}

/**
 * The confirmation policy a stored value stands for. Before the default became 'non-read-only', every Save on the
 * options page stored the old default 'consequential' whether or not the person picked it, so a 'consequential'
 * without the `chosen` mark (written with every Save since) is the old default and moves to the new one. A policy
 * the person did pick (any other stored value, or one with the mark) is kept. Anything unknown is the default.
 */
export function storedConfirmationPolicy(value: unknown, chosen: unknown): ConfirmationPolicy {
  const known = CONFIRMATION_POLICIES.find((p) => p.id === value)?.id;
  if (!known) return DEFAULT_SETTINGS.confirmation;
  if (known === 'consequential' && chosen !== true) return DEFAULT_SETTINGS.confirmation;
  return known;
}

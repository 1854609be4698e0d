import { APICallError } from 'ai';
import type { AgentErrorCode } from '../agent/types';
import type { CloudConnection, CloudDeps, CloudProviderId } from './cloud-settings';
import { mapCloudError, redactKey } from './map-cloud-error';
import { normalizeBaseURL } from './resolve-model';

/** One model the provider offers, for the options page's picker. */
interface ListedModel {
  id: string;
  label: string;
}

type ModelListing = { ok: true; models: ListedModel[] } | { ok: false; message: string; code?: AgentErrorCode };

/** OpenAI lists every model it has; these cannot chat. */
const OPENAI_NOT_CHAT = /embedding|tts|whisper|dall-e|moderation|davinci|babbage|transcribe|image|audio|realtime|search|sora/i;

/**
 * The provider's models, from its own listing (`GET {baseURL}/models`): OpenAI's (without embedding, audio and
 * image models), Anthropic's (newest first, with display names), and any OpenAI-compatible server's (Ollama,
 * LM Studio, OpenRouter, vLLM and llama.cpp all serve it). Never rejects: a failure comes back as a message
 * mapped like a run's errors.
 */
export async function listModels(
  settings: CloudConnection & { provider: CloudProviderId },
  deps: Pick<CloudDeps, 'fetch'> & { signal?: AbortSignal },
): Promise<ModelListing> {
  let baseURL: string;
  try {
    baseURL = normalizeBaseURL(settings.baseURL, settings.provider);
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
  const apiKey = settings.apiKey.trim();
  const url = `${baseURL}/models${settings.provider === 'anthropic' ? '?limit=1000' : ''}`;
  const headers: Record<string, string> =
    settings.provider === 'anthropic'
      ? { 'x-api-key': apiKey, 'anthropic-version': '2023-06-01', 'anthropic-dangerous-direct-browser-access': 'true' }
      : apiKey
        ? { authorization: `Bearer ${apiKey}` }
        : {};
  const context = { provider: settings.provider, baseURL, apiKey };
  try {
    const response = await deps.fetch(url, { headers, signal: deps.signal });
    const text = await response.text();
    if (!response.ok) {
      let data: unknown;
      try {
        data = JSON.parse(text);
      } catch {
        data = undefined;
      }
      const error = new APICallError({
        message: response.statusText || `HTTP ${response.status}`,
        url,
        requestBodyValues: {},
        statusCode: response.status,
        responseBody: text,
        data,
      });
      const report = mapCloudError(error, context);
      return { ok: false, message: report.error, ...(report.code ? { code: report.code } : {}) };
    }
    const body = JSON.parse(text) as { data?: { id?: unknown; display_name?: unknown; name?: unknown }[] };
    if (!Array.isArray(body?.data)) {
      return { ok: false, message: `${url} did not answer with a model list.` };
    }
    const models = body.data
      .filter((m) => typeof m?.id === 'string' && m.id !== '')
      .map((m) => ({
        id: m.id as string,
        label: typeof m.display_name === 'string' ? m.display_name : typeof m.name === 'string' ? m.name : (m.id as string),
      }))
      .filter((m) => settings.provider !== 'openai' || !OPENAI_NOT_CHAT.test(m.id));
    if (settings.provider !== 'anthropic') models.sort((a, b) => a.id.localeCompare(b.id));
    return { ok: true, models };
  } catch (error) {
    if (error instanceof SyntaxError) return { ok: false, message: redactKey(`${url} did not answer with JSON.`, apiKey) };
    const report = mapCloudError(error, context);
    return { ok: false, message: report.error, ...(report.code ? { code: report.code } : {}) };
  }
}

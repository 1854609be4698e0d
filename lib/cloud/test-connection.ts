import { generateText } from 'ai';
import type { AgentErrorCode } from '../agent/types';
import { type CloudDeps, type CloudSettings, cloudModelName } from './cloud-settings';
import { mapCloudError, redactKey } from './map-cloud-error';
import { resolveModel } from './resolve-model';

/** The outcome of "Test connection", in words for the options page. */
type ConnectionReport = { ok: true; message: string } | { ok: false; message: string; code?: AgentErrorCode };

/** How long "Test connection" waits for the answer. */
const TEST_CONNECTION_TIMEOUT_MS = 20_000;

/**
 * The options page's "Test connection": one cheap request (a 16-token reply to "Reply with OK", no retries)
 * to the chosen model with the chosen key, which checks the key, the base URL, the model name and that this
 * context may call the host at all. Never rejects; the key never appears in the message.
 */
export async function testConnection(
  settings: CloudSettings,
  deps: Pick<CloudDeps, 'fetch'> & { signal?: AbortSignal; timeoutMs?: number },
): Promise<ConnectionReport> {
  let resolved: ReturnType<typeof resolveModel>;
  try {
    resolved = resolveModel(cloudModelName(settings), settings, deps);
  } catch (error) {
    return { ok: false, message: redactKey((error as Error).message, settings.apiKey) };
  }
  const timeoutMs = deps.timeoutMs ?? TEST_CONNECTION_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = deps.signal ? AbortSignal.any([deps.signal, timeout]) : timeout;
  const started = Date.now();
  try {
    await generateText({
      model: resolved.model,
      prompt: 'Reply with the word OK.',
      maxOutputTokens: 16,
      maxRetries: 0,
      abortSignal: signal,
    });
  } catch (error) {
    if (timeout.aborted) {
      return { ok: false, code: 'network', message: `No answer from ${resolved.baseURL} within ${timeoutMs / 1000} s.` };
    }
    if (deps.signal?.aborted) return { ok: false, message: 'The test was cancelled.' };
    const report = mapCloudError(error, { provider: resolved.provider, baseURL: resolved.baseURL, apiKey: settings.apiKey });
    return { ok: false, message: report.error, ...(report.code ? { code: report.code } : {}) };
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  return { ok: true, message: `Connected: ${resolved.modelId} answered in ${seconds} s.` };
}

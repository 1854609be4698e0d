/**
 * Cloud mode's public surface: the person's own key, through the AI SDK. Pure TypeScript: fetch comes in as
 * a dependency, so it runs in the offscreen document, Firefox's background page, and Node.
 */
export {
  CLOUD_PROVIDERS,
  type CloudConnection,
  type CloudDeps,
  type CloudProviderId,
  type CloudReasoning,
  type CloudSettings,
  cloudModelName,
  DEFAULT_BASE_URLS,
  DEFAULT_CLOUD_MAX_STEPS,
} from './cloud-settings';
export { cloudStatus, createCloudAdapter } from './create-cloud-adapter';
export { resolveModel, normalizeBaseURL, isOllamaBaseURL, type ResolvedModel } from './resolve-model';
export { toToolSet, cleanSchema, cleanDescription, PageToolError, type PageToolSet, type ToToolSetOptions } from './to-tool-set';
export { toProviderToolName } from './to-provider-tool-name';
export { toToolResultOutput } from './to-tool-result-output';
export { toModelMessages } from './to-model-messages';
export { buildSystemPrompt, DEFAULT_SYSTEM_PROMPT } from './build-system-prompt';
export { mapCloudError, redactKey, OLLAMA_ORIGINS_HINT, type CloudErrorContext, type CloudErrorReport } from './map-cloud-error';
export { testConnection, TEST_CONNECTION_TIMEOUT_MS, type ConnectionReport } from './test-connection';
export { listModels, type ListedModel, type ModelListing } from './list-models';

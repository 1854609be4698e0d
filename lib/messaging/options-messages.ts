/**
 * The options page → agent host protocol, declared once for both ends. The options page sends one request with
 * runtime.sendMessage; the host (Chrome's offscreen document, Firefox's background page) answers it with
 * handleOptionsRequest (lib/host/options-requests.ts). No request carries an API key: the host reads the saved
 * key from storage itself, and no reply carries one either.
 */
import type { AgentErrorCode } from '../agent/types';
import type { ChannelMessage } from './channel';

/** What "Test this device" measured for one model on one device. */
export interface DeviceTestResult {
  modelId: string;
  /** Where it ran: webgpu or wasm, and the weights' format. */
  device: 'webgpu' | 'wasm' | 'cpu';
  dtype: 'q4f16' | 'q4' | 'fp32';
  /** When, as an ISO date-time. */
  testedAt: string;
  /** Tokens of the fixed prompt after the chat template. */
  promptTokens: number;
  /** From the call to the first new token: reading the whole prompt (no KV cache is reused). */
  firstTokenMs: number;
  /** New tokens after the first, per second of decoding; undefined when the model wrote fewer than two. */
  tokensPerSecond?: number;
  newTokens: number;
  /** Model weights as stored on the device plus the KV cache the test left: what the engine holds for this model. */
  memoryBytes?: number;
  /** What memoryBytes counts, so the page can say it. */
  memorySource: 'weights+kv' | 'weights';
}

/** One catalog model as the options page lists it. */
export interface LocalModelDetails {
  id: string;
  label: string;
  brief: string;
  hardware?: string;
  /** Download size for the format this device would use. */
  bytes?: number;
  /** The format this device would use. */
  dtype?: string;
  cached: boolean;
  /** Space its files take on this device, when cached. */
  storedBytes?: number;
  recommended?: boolean;
  /** What "Test this device" last measured for it here. */
  deviceTest?: DeviceTestResult;
}

/** What the options page asks the host (the channel is declared below: OptionsChannel). */
export type OptionsRequest = ChannelMessage<OptionsChannel>;

/** The request types, for guards and routing. */
const OPTIONS_REQUEST_TYPES = [
  'options/test-connection',
  'options/list-cloud-models',
  'options/list-local-models',
  'options/delete-local-model',
  'options/delete-conversations',
  'options/test-device',
] as const satisfies readonly OptionsRequest['type'][];

/** "Test connection": what happened, in words. */
export type TestConnectionReply = { ok: true; message: string } | { ok: false; message: string; code?: AgentErrorCode };

/** One model the cloud provider offers. */
export interface CloudModelInfo {
  id: string;
  label: string;
}

/** The provider's models, or why they could not be listed (the page then offers free text). */
export type CloudModelsReply = { ok: true; models: CloudModelInfo[] } | { ok: false; message: string; code?: AgentErrorCode };

/** One on-device catalog model as the options page shows it: what the local adapter reports. */
export type LocalModelInfo = LocalModelDetails;

export type LocalModelsReply = { ok: true; models: LocalModelInfo[] } | { ok: false; message: string };

export type DeleteLocalModelReply = { ok: true } | { ok: false; message: string };

export type DeleteConversationsReply = { ok: true } | { ok: false; message: string };
/** What "Test this device" measured (also kept in the settings), or why it could not. */
export type TestDeviceReply = { ok: true; result: DeviceTestResult } | { ok: false; message: string };

/** Options page → agent host (runtime.sendMessage; the host answers extension pages only). */
interface OptionsChannel {
  /** One cheap request to the saved cloud provider with the saved key and model. */
  'options/test-connection': { request: object; answer: TestConnectionReply };
  /** The saved provider's models, for the Model picker. */
  'options/list-cloud-models': { request: object; answer: CloudModelsReply };
  /** The on-device catalog with what is downloaded and how much space it takes. */
  'options/list-local-models': { request: object; answer: LocalModelsReply };
  /** Delete one downloaded on-device model and free its space. */
  'options/delete-local-model': { request: { modelId: string }; answer: DeleteLocalModelReply };
  /** "Delete all conversations": stored ones, and what open panels show. */
  'options/delete-conversations': { request: object; answer: DeleteConversationsReply };
  /** "Test this device": run the fixed prompt through one downloaded model, keep and return the figures. */
  'options/test-device': { request: { modelId: string }; answer: TestDeviceReply };
}

/** Each request's reply type. */
export type OptionsReplies = { [T in keyof OptionsChannel]: OptionsChannel[T]['answer'] };

/** Any reply. */
export type OptionsReply = OptionsReplies[keyof OptionsReplies];

/** Whether a runtime message is an options request (well-formed: a delete or a device test names its model). */
export function isOptionsRequest(message: unknown): message is OptionsRequest {
  if (typeof message !== 'object' || message === null) return false;
  const m = message as { type?: unknown; modelId?: unknown };
  if (!OPTIONS_REQUEST_TYPES.includes(m.type as OptionsRequest['type'])) return false;
  const namesModel = m.type === 'options/delete-local-model' || m.type === 'options/test-device';
  return !namesModel || (typeof m.modelId === 'string' && m.modelId !== '');
}

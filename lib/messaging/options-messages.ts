/**
 * The options page → agent host protocol, declared once for both ends. The options page sends one request with
 * runtime.sendMessage; the host (Chrome's offscreen document, Firefox's background page) answers it with
 * handleOptionsRequest (lib/host/options-requests.ts). No request carries an API key: the host reads the saved
 * key from storage itself, and no reply carries one either.
 */
import type { AgentErrorCode } from '../agent/types';
import type { LocalModelDetails } from '../local/create-local-adapter';
import type { DeviceTestResult } from '../local/measure-device';

/** What the options page asks the host. */
export type OptionsRequest =
  /** One cheap request to the saved cloud provider with the saved key and model. */
  | { type: 'options/test-connection' }
  /** The saved provider's models, for the Model picker. */
  | { type: 'options/list-cloud-models' }
  /** The on-device catalog with what is downloaded and how much space it takes. */
  | { type: 'options/list-local-models' }
  /** Delete one downloaded on-device model and free its space. */
  | { type: 'options/delete-local-model'; modelId: string }
  /** "Delete all conversations": stored ones, and what open panels show. */
  | { type: 'options/delete-conversations' }
  /** "Test this device": run the fixed prompt through one downloaded model, keep and return the figures. */
  | { type: 'options/test-device'; modelId: string };

/** The request types, for guards and routing. */
export const OPTIONS_REQUEST_TYPES = [
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

/** Each request's reply type. */
export interface OptionsReplies {
  'options/test-connection': TestConnectionReply;
  'options/list-cloud-models': CloudModelsReply;
  'options/list-local-models': LocalModelsReply;
  'options/delete-local-model': DeleteLocalModelReply;
  'options/delete-conversations': DeleteConversationsReply;
  'options/test-device': TestDeviceReply;
}

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

import type {
  CloudModelsReply,
  DeleteConversationsReply,
  DeleteLocalModelReply,
  LocalModelsReply,
  OptionsReplies,
  OptionsRequest,
  TestConnectionReply,
  TestDeviceReply,
} from './options-messages';
import { errorMessage } from '../shared/error-message';

/** The options page's side of the protocol: one method per request; every method resolves, never rejects. */
export interface OptionsClient {
  testConnection(): Promise<TestConnectionReply>;
  listCloudModels(): Promise<CloudModelsReply>;
  listLocalModels(): Promise<LocalModelsReply>;
  deleteLocalModel(modelId: string): Promise<DeleteLocalModelReply>;
  deleteConversations(): Promise<DeleteConversationsReply>;
  testDevice(modelId: string): Promise<TestDeviceReply>;
}

/**
 * Creates the client over `send` (runtime.sendMessage in the options page). A host that is not running, or that
 * answers nothing, becomes an { ok: false } reply that says so, so the page can show it instead of failing silently.
 */
export function createOptionsClient(
  send: (message: OptionsRequest) => Promise<unknown>,
  options: { retryDelaysMs?: readonly number[] } = {},
): OptionsClient {
  // The host may still be starting when the page opens (the background creates it): then nobody answers (no
  // receiver at all, or only the background, whose listeners leave the reply undefined). Ask again a little later.
  const retryDelaysMs = options.retryDelaysMs ?? [250, 500, 1000, 2000];
  const sendWithRetry = async (message: OptionsRequest): Promise<unknown> => {
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= retryDelaysMs.length;
      try {
        const reply = await send(message);
        if (reply !== undefined || last) return reply;
      } catch (error) {
        const notThereYet = /Receiving end does not exist|Could not establish connection/i.test(String(error));
        if (!notThereYet || last) throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, retryDelaysMs[attempt]));
    }
  };
  const ask = async <T extends OptionsRequest>(message: T): Promise<OptionsReplies[T['type']]> => {
    let reply: unknown;
    try {
      reply = await sendWithRetry(message);
    } catch (error) {
      const reason = errorMessage(error);
      return {
        ok: false,
        message: `The agent host did not answer (${reason}). Reload the extension and try again.`,
      } as OptionsReplies[T['type']];
    }
    if (typeof reply !== 'object' || reply === null || typeof (reply as { ok?: unknown }).ok !== 'boolean') {
      return { ok: false, message: 'The agent host did not answer. Reload the extension and try again.' } as OptionsReplies[T['type']];
    }
    return reply as OptionsReplies[T['type']];
  };
  return {
    testConnection: () => ask({ type: 'options/test-connection' }),
    listCloudModels: () => ask({ type: 'options/list-cloud-models' }),
    listLocalModels: () => ask({ type: 'options/list-local-models' }),
    deleteLocalModel: (modelId) => ask({ type: 'options/delete-local-model', modelId }),
    deleteConversations: () => ask({ type: 'options/delete-conversations' }),
    testDevice: (modelId) => ask({ type: 'options/test-device', modelId }),
  };
}

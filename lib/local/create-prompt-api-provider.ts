import type { ChatTurn, GenerateRequest, LocalProvider } from '../agent/local-provider';
import type { AdapterStatus } from '../agent/types';
import { errorMessage } from '../shared/error-message';

/** What Chrome's Prompt API says about its built-in model on this device. */
export type PromptApiAvailability = 'unavailable' | 'downloadable' | 'downloading' | 'available';

/** One message as the Prompt API takes it. */
export interface PromptApiMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** The slice of a Prompt API session the provider uses. */
interface PromptApiSession {
  prompt: (input: string, options?: { signal?: AbortSignal }) => Promise<string>;
  measureInputUsage?: (input: string, options?: { signal?: AbortSignal }) => Promise<number>;
  readonly inputUsage?: number;
  readonly inputQuota?: number;
  destroy: () => void;
}

/** The slice of the `LanguageModel` global (Chrome 138+) the provider uses. */
export interface LanguageModelLike {
  availability: (options?: Record<string, unknown>) => Promise<PromptApiAvailability>;
  create: (options?: {
    initialPrompts?: PromptApiMessage[];
    signal?: AbortSignal;
    monitor?: (m: EventTarget) => void;
    expectedInputs?: { type: 'text'; languages?: string[] }[];
    expectedOutputs?: { type: 'text'; languages?: string[] }[];
  }) => Promise<PromptApiSession>;
}

/** A LocalProvider over the browser's built-in model, plus the status the adapter shows for it. */
export interface PromptApiProvider extends LocalProvider {
  /** What the adapter should show: unavailable (with the reason), needs-download, downloading or ready. */
  status: () => Promise<AdapterStatus>;
  fits: NonNullable<LocalProvider['fits']>;
}

/** Said when the browser has no Prompt API at all (Firefox, Chromium builds without it, Chrome before 138). */
export const NO_PROMPT_API = "This browser has no built-in model (Chrome's Prompt API).";
/** Said when Chrome has the API but not the model on this device. */
export const PROMPT_API_UNAVAILABLE =
  "Chrome's built-in model can't run on this device: it needs about 22 GB free disk space and a GPU with more than 4 GB of memory, or a 4-core CPU with 16 GB RAM.";

const LANGUAGES = {
  expectedInputs: [{ type: 'text' as const, languages: ['en'] }],
  expectedOutputs: [{ type: 'text' as const, languages: ['en'] }],
};

/** The history as Prompt API messages: one system message first; tool results become user turns (no tool role). */
function toPromptMessages(turns: ChatTurn[]): PromptApiMessage[] {
  const system = turns
    .filter((t) => t.role === 'system')
    .map((t) => t.content)
    .join('\n\n');
  const rest = turns
    .filter((t) => t.role !== 'system')
    .map((t): PromptApiMessage => {
      if (t.role === 'tool') return { role: 'user', content: `Result of ${t.name ?? 'the tool'}:\n${t.content}` };
      return { role: t.role as 'user' | 'assistant', content: t.content };
    });
  return system ? [{ role: 'system', content: system }, ...rest] : rest;
}

/**
 * Chrome's built-in model (the Prompt API's `LanguageModel`, passed in: lib/ reads no globals) as a second on-device
 * provider. It needs no download from us (Chrome fetches its own model when asked), has no chat-template tools, so
 * the loop lists tools inline and writes earlier calls as text. Where the API is missing, status says why.
 */
export function createPromptApiProvider(languageModel: LanguageModelLike | undefined): PromptApiProvider {
  const availability = async (): Promise<PromptApiAvailability> => (languageModel ? languageModel.availability(LANGUAGES) : 'unavailable');

  /** A session holding every turn but the last, and the last turn's text to prompt with. */
  const open = async (req: Omit<GenerateRequest, 'signal'>, signal?: AbortSignal) => {
    if (!languageModel) throw new Error(NO_PROMPT_API);
    const messages = toPromptMessages(req.messages);
    const last = messages.at(-1);
    if (!last || last.role === 'system') throw new Error('Nothing to answer: the conversation has no user turn.');
    const history = messages.slice(0, -1);
    // The API wants the prompt to come from the user; an assistant turn last (a resumed reply) is replayed as history.
    const input = last.role === 'user' ? last.content : 'Continue.';
    const initialPrompts = last.role === 'user' ? history : messages;
    const session = await languageModel.create({ ...LANGUAGES, initialPrompts, signal });
    return { session, input };
  };

  return {
    id: 'chrome-built-in',
    toolsInline: true,
    callFormat: 'text',

    status: async () => {
      if (!languageModel) return { state: 'unavailable', reason: NO_PROMPT_API };
      try {
        const a = await availability();
        if (a === 'available') return { state: 'ready' };
        if (a === 'downloadable') {
          return { state: 'needs-download', note: 'Chrome downloads its built-in model itself, once, for every site.' };
        }
        if (a === 'downloading') return { state: 'downloading', progress: 0 };
        return { state: 'unavailable', reason: PROMPT_API_UNAVAILABLE };
      } catch (error) {
        return { state: 'unavailable', reason: errorMessage(error) };
      }
    },

    prepare: async (onProgress, signal) => {
      if (!languageModel) throw new Error(NO_PROMPT_API);
      const a = await availability();
      if (a === 'unavailable') throw new Error(PROMPT_API_UNAVAILABLE);
      if (a === 'available') {
        onProgress(1);
        return;
      }
      onProgress(0);
      // Creating a session is what starts Chrome's download; its monitor reports progress from 0 to 1.
      const session = await languageModel.create({
        ...LANGUAGES,
        signal,
        monitor: (m) => m.addEventListener('downloadprogress', (e) => onProgress((e as Event & { loaded: number }).loaded)),
      });
      session.destroy();
      onProgress(1);
    },

    generate: async (req) => {
      req.signal.throwIfAborted();
      const { session, input } = await open(req, req.signal);
      try {
        return await session.prompt(input, { signal: req.signal });
      } finally {
        session.destroy();
      }
    },

    fits: async (req) => {
      const { session, input } = await open(req);
      try {
        if (session.inputQuota === undefined || !session.measureInputUsage) return true;
        const used = (session.inputUsage ?? 0) + (await session.measureInputUsage(input));
        return used + (req.maxNewTokens ?? 0) <= session.inputQuota;
      } finally {
        session.destroy();
      }
    },
  };
}

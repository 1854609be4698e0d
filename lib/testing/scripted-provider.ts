import type { CallFormat, GenerateRequest, LocalProvider } from '../agent/local-provider';

/** One scripted step: a reply, a function of the request, or an error to throw. */
export type ScriptedReply = string | Error | ((req: GenerateRequest) => string | Promise<string>);

/** A provider that answers from a script and records what it was sent. */
interface ScriptedProvider extends LocalProvider {
  /** Every generate request, in order. */
  readonly requests: GenerateRequest[];
  /** Every fits request, in order. */
  readonly fitsRequests: Omit<GenerateRequest, 'signal'>[];
}

/** Options of {@link createScriptedProvider}. */
interface ScriptedProviderOptions {
  id?: string;
  toolsInline?: boolean;
  callFormat?: CallFormat;
  /** Answers provider.fits; without it the provider has no fits (everything fits). */
  fits?: (req: Omit<GenerateRequest, 'signal'>) => boolean | Promise<boolean>;
}

/**
 * A LocalProvider that replays given replies, one per generate call, and records the prompts. For tests and
 * benchmarks of the loop itself: it answers at once (or when a scripted function resolves) and rejects when
 * its script runs out, so a test that expects fewer generations fails loudly.
 */
export function createScriptedProvider(replies: readonly ScriptedReply[], options: ScriptedProviderOptions = {}): ScriptedProvider {
  const requests: GenerateRequest[] = [];
  const fitsRequests: Omit<GenerateRequest, 'signal'>[] = [];
  let next = 0;
  const fits = options.fits;
  return {
    id: options.id ?? 'scripted',
    toolsInline: options.toolsInline ?? false,
    callFormat: options.callFormat ?? 'template',
    requests,
    fitsRequests,
    prepare: async (onProgress) => onProgress(1),
    generate: async (req) => {
      requests.push(req);
      if (req.signal.aborted) throw req.signal.reason ?? new Error('aborted');
      const reply = replies[next++];
      if (reply === undefined) throw new Error(`the script has only ${replies.length} replies`);
      if (reply instanceof Error) throw reply;
      return typeof reply === 'function' ? reply(req) : reply;
    },
    ...(fits
      ? {
          fits: (req: Omit<GenerateRequest, 'signal'>) => {
            fitsRequests.push(req);
            return fits(req);
          },
        }
      : {}),
  };
}

/** A scripted reply that never comes: it rejects only when the generation is aborted (Stop or the step timeout). */
export function hang(req: GenerateRequest): Promise<string> {
  return new Promise((_, reject) => {
    if (req.signal.aborted) reject(req.signal.reason);
    req.signal.addEventListener('abort', () => reject(req.signal.reason), { once: true });
  });
}

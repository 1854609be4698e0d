import type { AgentAdapter } from '../agent/types';
import type { AdapterSummary, AgentKind, HostEvent } from '../messaging/agent-messages';
import { errorMessage } from '../shared/error-message';
import type { AgentHostDeps } from './agent-host-deps';
import type { PanelHandlers, PanelNotice } from './create-panel-handlers';

/** Says why no adapter can run, for a kind the build has no adapter for. */
export const MISSING_ADAPTER = (kind: AgentKind) =>
  kind === 'local' ? 'On-device mode is not available in this build.' : 'Cloud mode is not available in this build.';

/** The intents that choose and set up adapters. */
type AdapterIntents = 'panel/choose-adapter' | 'panel/choose-model' | 'panel/prepare' | 'panel/cancel-prepare';

/** The host's adapters as panels see them, and the person's choices of them. */
interface HostAdapters {
  /** The adapter the person chose, built, or why none can run. */
  chosen(): Promise<AgentAdapter | { unavailable: string }>;
  /** The adapters as panels see them. */
  summaries(): Promise<{ chosen: AgentKind; adapters: AdapterSummary[] }>;
  /** Tells every panel the adapters' state, at most once per 100 ms. */
  broadcast(): void;
  /** Carries out the intents that choose and set up adapters. */
  handlers: Pick<PanelHandlers, AdapterIntents>;
}

/**
 * Creates the host's adapters part over `deps`; `toAll` posts one event to every panel, `notice` tells one panel
 * what could not be done. Adapter status changes (download progress) reach every panel.
 */
export function createHostAdapters(
  deps: Pick<AgentHostDeps, 'settings' | 'adapters' | 'saveModel'>,
  toAll: (event: HostEvent) => void,
  notice: PanelNotice,
): HostAdapters {
  /** The running model downloads, by adapter: the person may cancel one. */
  const prepares = new Map<AgentKind, AbortController>();

  const chosen = async (): Promise<AgentAdapter | { unavailable: string }> => {
    const { mode } = await deps.settings.read();
    await deps.adapters.current();
    return deps.adapters.get(mode) ?? { unavailable: MISSING_ADAPTER(mode) };
  };

  const summaries = async () => {
    const { mode } = await deps.settings.read();
    await deps.adapters.current();
    return { chosen: mode, adapters: (['local', 'cloud'] as const).map((kind) => summaryOf(kind, deps.adapters.get(kind))) };
  };

  let timer: ReturnType<typeof setTimeout> | undefined;
  const broadcast = () => {
    if (timer !== undefined) return;
    // Download progress can tick many times a second: one update per 100 ms is plenty for a progress bar.
    timer = setTimeout(async () => {
      timer = undefined;
      toAll({ type: 'panel/adapters', ...(await summaries()) });
    }, 100);
  };
  deps.adapters.subscribe(broadcast);

  const handlers: HostAdapters['handlers'] = {
    'panel/choose-adapter': async (intent) => {
      await deps.settings.setMode(intent.adapter);
      broadcast();
    },
    'panel/choose-model': async (intent, port) => {
      await deps.adapters.refresh();
      const adapter = deps.adapters.get(intent.adapter);
      if (!adapter?.selectModel) return notice(port, 'This agent has no other models.');
      try {
        await adapter.selectModel(intent.modelId);
        await deps.saveModel?.(intent.adapter, intent.modelId);
      } catch (error) {
        notice(port, `Could not switch models: ${errorMessage(error)}`);
      }
      broadcast();
    },
    'panel/prepare': async (intent, port) => {
      await deps.adapters.refresh();
      const adapter = deps.adapters.get(intent.adapter);
      if (!adapter?.prepare || prepares.has(intent.adapter)) return;
      const controller = new AbortController();
      prepares.set(intent.adapter, controller);
      broadcast();
      try {
        await adapter.prepare(controller.signal);
      } catch (error) {
        if (!controller.signal.aborted) notice(port, `The download failed: ${errorMessage(error)}`);
      } finally {
        prepares.delete(intent.adapter);
        broadcast();
      }
    },
    'panel/cancel-prepare': (intent) => {
      prepares.get(intent.adapter)?.abort();
    },
  };

  return { chosen, summaries, broadcast, handlers };
}

/** One adapter as panels see it; a kind the build has none of says so. */
function summaryOf(kind: AgentKind, adapter: AgentAdapter | undefined): AdapterSummary {
  return adapter
    ? { kind, label: adapter.label, status: adapter.status?.() ?? { state: 'ready' }, models: [...(adapter.models?.() ?? [])] }
    : {
        kind,
        label: kind === 'local' ? 'On-device' : 'Cloud',
        status: { state: 'unavailable', reason: MISSING_ADAPTER(kind) },
        models: [],
      };
}

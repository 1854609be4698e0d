import { changesSettingsOrKeys } from '../storage/changes-settings-or-keys';
import type { AgentAdapter } from '../agent/types';
import { type AttestedSender, isHostSender } from '../messaging/is-host-sender';
import type { RouterClient } from '../messaging/router-client';
import { createCloudAdapter } from '../cloud/create-cloud-adapter';
import { listModels } from '../cloud/list-models';
import { testConnection } from '../cloud/test-connection';
import type { DeviceTestResult } from '../local/measure-device';
import type { LocalModelInfo, OptionsReply } from '../messaging/options-messages';
import { createSettingsStore, type SettingsStore } from '../storage/settings-store';
import type { StorageArea } from '../messaging/storage-area';
import type { ExtensionIdentity } from '../messaging/accept-extension-port';
import type { HostPort } from '../host/agent-host-deps';
import { type AdapterFactory, createAdapterRegistry } from '../host/create-adapter-registry';
import { cacheHostSettings } from '../host/cache-host-settings';
import { cacheSavedKeys } from '../host/cache-saved-keys';
import { handleOptionsRequest } from '../host/options-requests';
import { type AgentHost, createAgentHost } from '../host/create-agent-host';
import type { BridgeBrowser } from '../messaging/mcp-bridge-messages';
import { createRunGuard } from '../host/create-run-guard';
import { createMcpBridge } from '../mcp-bridge/create-mcp-bridge';
import type { SharingPort } from '../mcp-bridge/create-sharing-views';

/** The on-device adapter with the model management the options page uses (lib/local's LocalAdapter fits). */
interface HostLocalAdapter extends AgentAdapter {
  listModels?: () => Promise<Omit<LocalModelInfo, 'storedBytes'>[]>;
  deleteModel?: (modelId: string) => Promise<void>;
  testModel?: (modelId: string) => Promise<DeviceTestResult>;
}

interface WireAgentHostDeps {
  /** storage.local and storage.session: direct on Firefox, proxied through the background on Chrome. */
  storage: { local: StorageArea; session: StorageArea };
  /** runtime.onConnect (side panels). */
  onConnect: { addListener(listener: (port: HostPort) => void): void };
  /** The extension's id and origin: only its own pages may connect or ask. */
  extension: ExtensionIdentity;
  bridge: RouterClient;
  /** The fetch cloud calls go through. */
  fetch: typeof fetch;
  /** Builds the on-device adapter from the settings (its model and model host). Without it, on-device mode says it is not available here. */
  createLocalAdapter?: (settings: SettingsStore) => HostLocalAdapter | Promise<HostLocalAdapter>;
  /** The native Port, tabs and notifications, for the bridge to desktop agents (lib/mcp-bridge). Without it, no bridge. */
  bridgeBrowser?: BridgeBrowser;
}

/** What the entry point gets back. */
interface AgentHostRuntime {
  host: AgentHost;
  settings: SettingsStore;
  /**
   * Answers an options page request (runtime.onMessage), or undefined when the message is not one or does not come
   * from one of the extension's own pages (a content script asking for the settings gets no answer at all).
   */
  handleMessage(message: unknown, sender: AttestedSender | undefined): Promise<OptionsReply> | undefined;
}

/**
 * Everything the agent host runs, wired: the settings store, the adapters (on-device from the given factory; cloud
 * rebuilt whenever its saved settings change), the host itself, and the options page's requests. The same in
 * Chrome's offscreen document and Firefox's background page; entry points only pass their browser objects.
 */
export function wireAgentHost(deps: WireAgentHostDeps): AgentHostRuntime {
  const settings = createSettingsStore({ local: deps.storage.local });
  let local: Promise<HostLocalAdapter> | undefined;
  const localAdapter = () => {
    if (!deps.createLocalAdapter) return undefined;
    local ??= Promise.resolve(deps.createLocalAdapter(settings));
    return local;
  };

  const factories: AdapterFactory[] = [
    {
      kind: 'local',
      create: async () => {
        const adapter = await localAdapter();
        if (!adapter) throw new Error('On-device mode is not available in this browser.');
        return adapter;
      },
    },
    {
      kind: 'cloud',
      // The cloud settings with the key: the registry keeps this string in memory only, to notice a change.
      key: async () => JSON.stringify(await settings.cloudSettings()),
      create: async () => {
        const cloud = await settings.cloudSettings();
        if (!cloud.ok) throw new Error(cloud.error);
        return createCloudAdapter(cloud.value, { fetch: deps.fetch });
      },
    },
  ];
  const adapters = createAdapterRegistry(factories);
  // What the adapters are built from (the settings, a provider's key) changes only with a storage change: a run
  // looks again then, and reads no storage otherwise (create-adapter-registry.ts current()).
  deps.storage.local.onChanged.addListener((changes) => {
    if (changesSettingsOrKeys(changes)) adapters.invalidate();
  });
  // A saved setting may change what an adapter is built from (Save on the options page): rebuild, and panels hear.
  settings.subscribe(() => void adapters.refresh());

  const host = createAgentHost({
    bridge: deps.bridge,
    // Read once, then kept until a setting changes: a tool call reads no storage (cache-host-settings.ts).
    settings: cacheHostSettings(settings, deps.storage.local.onChanged),
    adapters,
    storage: deps.storage,
    onConnect: deps.onConnect,
    secrets: cacheSavedKeys(settings.readApiKey, deps.storage.local.onChanged),
    extension: deps.extension,
    saveModel: async (kind, modelId) => {
      if (kind !== 'local') return;
      const { local: preferences } = await settings.read();
      await settings.saveLocal({ ...preferences, modelId });
    },
  });

  // The bridge to desktop agents: off until the person turns it on (docs/security.md § 7).
  if (deps.bridgeBrowser) {
    void createMcpBridge({
      browser: deps.bridgeBrowser,
      tools: deps.bridge,
      session: (tabId) => host.session(tabId),
      // A desktop agent's guard judges its calls and is told no site (create-run-guard.ts).
      createGuard: () => createRunGuard({ site: undefined, agent: undefined, stop: () => undefined }),
      storage: deps.storage.local,
      onConnect: deps.onConnect as unknown as { addListener(listener: (port: SharingPort) => void): void },
      extension: deps.extension,
    }).start();
  }

  return {
    host,
    settings,
    handleMessage: (message, sender) => {
      if (!isHostSender(sender, deps.extension.id, deps.extension.origin)) return undefined;
      return handleOptionsRequest(message, {
        settings,
        testConnection: (cloud) => testConnection(cloud, { fetch: deps.fetch }),
        listCloudModels: async (cloud) => {
          const listing = await listModels(cloud, { fetch: deps.fetch });
          return listing.ok ? { ok: true, models: listing.models } : listing;
        },
        listLocalModels: async () => {
          const adapter = await localAdapter();
          return adapter?.listModels ? adapter.listModels() : [];
        },
        deleteLocalModel: async (modelId) => {
          const adapter = await localAdapter();
          if (!adapter?.deleteModel) throw new Error('On-device mode is not available in this browser.');
          await adapter.deleteModel(modelId);
          // The adapter's status may now be needs-download: panels hear through its subscribe.
        },
        testDevice: async (modelId) => {
          const adapter = await localAdapter();
          if (!adapter?.testModel) throw new Error('On-device mode is not available in this browser.');
          return adapter.testModel(modelId);
        },
        saveDeviceTest: (result) => settings.saveDeviceTest(result),
        deleteConversations: () => host.deleteAllConversations(),
      });
    },
  };
}

/**
 * The background's part in Chrome's run-time stubs (create-stub-sync.ts): at start, the stub stored from the agent
 * host's last report goes in; each report (`router/native-webmcp`) is stored and swaps the stubs. Firefox declares
 * its stub in the manifest and has nothing to sync.
 */
import { type ContentScriptRegistry, createStubSync, NATIVE_WEBMCP_KEY } from './create-stub-sync';

/** The slice of the browser this needs. */
interface StubSyncBrowser {
  scripting: ContentScriptRegistry;
  storage: {
    local: {
      get(key: string): Promise<Record<string, unknown>>;
      set(items: Record<string, unknown>): Promise<void>;
    };
  };
}

/** What the rest of the background (and the tests' hooks) get. */
interface StubSync {
  /** Settles once the stub stored from the last report is registered. */
  ready: Promise<unknown>;
  /**
   * Settles once this worker's stubs are right: at once where a report is stored, else (a first launch) once the
   * agent host has reported; on a first launch with native WebMCP that report swaps the stubs.
   */
  settled: Promise<unknown>;
  /** The agent host reported whether the browser has native WebMCP: stored, then the stubs swapped. */
  nativeReported(native: boolean): Promise<void>;
}

/** Starts the sync (Chrome: `firefox` false); on Firefox every promise is settled and reports are ignored. */
export function setUpStubSync(browser: StubSyncBrowser, options: { firefox: boolean }): StubSync {
  if (options.firefox) return { ready: Promise.resolve(), settled: Promise.resolve(), nativeReported: async () => {} };
  const syncStubs = createStubSync(browser.scripting);
  let firstReported = () => {};
  const firstReport = new Promise<void>((resolve) => (firstReported = resolve));
  const storedReport = browser.storage.local.get(NATIVE_WEBMCP_KEY).catch(() => ({}) as Record<string, unknown>);
  const ready = storedReport.then((stored) => syncStubs(stored[NATIVE_WEBMCP_KEY] === true)).catch(() => undefined);
  return {
    ready,
    // Nothing stored: a first launch, whose host has yet to report.
    settled: storedReport.then((stored) => (NATIVE_WEBMCP_KEY in stored ? ready : firstReport)),
    nativeReported: (native) =>
      browser.storage.local
        .set({ [NATIVE_WEBMCP_KEY]: native })
        .then(() => syncStubs(native))
        .catch(() => undefined)
        .then(firstReported),
  };
}

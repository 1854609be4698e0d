/**
 * Clients hear when the shared tools changed (a page's tools, a tab, what is shared): changes are gathered over a
 * short while, and `tools/list-changed` goes out only when the list a client could get now differs from the last one
 * it got or was told of.
 */
import type { BridgeTool, NativeOutbound } from '../messaging/mcp-bridge-messages';

interface ListChangeNotifierDeps {
  /** The list as a client would get it now. */
  list(): Promise<BridgeTool[]>;
  /** Whether any client is connected: with none, nobody needs telling. */
  hasClients(): boolean;
  post(message: NativeOutbound): void;
  /** How long changes are gathered before clients hear of them. */
  settleMs: number;
}

/** The notifier. */
interface ListChangeNotifier {
  /** Something the list is made of may have changed: look again once the changes settle. */
  mayHaveChanged(): void;
  /** A client just got this list (tools/list): it is the one later lists are compared with. */
  listed(tools: BridgeTool[]): void;
  /** The native host went away: the next list is nobody's news. */
  forget(): void;
}

/** Creates the notifier. */
export function createListChangeNotifier(deps: ListChangeNotifierDeps): ListChangeNotifier {
  let lastList: string | undefined;
  let settleTimer: ReturnType<typeof setTimeout> | undefined;
  return {
    mayHaveChanged() {
      if (settleTimer !== undefined) return;
      settleTimer = setTimeout(async () => {
        settleTimer = undefined;
        if (!deps.hasClients()) return;
        const now = JSON.stringify(await deps.list());
        if (lastList !== undefined && now !== lastList) deps.post({ type: 'tools/list-changed' });
        lastList = now;
      }, deps.settleMs);
    },
    listed(tools) {
      lastList = JSON.stringify(tools);
    },
    forget() {
      lastList = undefined;
    },
  };
}

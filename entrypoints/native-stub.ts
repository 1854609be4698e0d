import { requestBridge } from '@/lib/isolated-world/request-bridge';
import { watchNativeAfterCommit } from '@/lib/isolated-world/watch-native-after-commit';

/**
 * Where the browser has native WebMCP, Chrome registers this at run time in place of the page-world stub
 * (lib/background/create-stub-sync.ts): in the isolated world, at document_start, it watches the native
 * modelContext and the forms, and at the first sign of WebMCP asks the background for the bridge. It reads the
 * native modelContext only once the browser has taken in the document's commit (watch-native-after-commit.ts).
 * docs/architecture.md, "The lazy bridge".
 */
export default defineUnlistedScript(() => {
  void watchNativeAfterCommit(window, chrome, () => requestBridge(chrome, true));
});

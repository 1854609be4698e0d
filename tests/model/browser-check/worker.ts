/**
 * The engine Worker of the browser check: what an extension's model worker entry does. It reads its own context's
 * facts and serves the engine; everything else (ORT URLs, model host) comes from the host in engine/configure.
 */
import { serveTransformersEngine } from '../../../lib/local/serve-transformers-engine';

const nav = self.navigator as Navigator & { gpu?: unknown };
serveTransformersEngine(self as never, {
  facts: {
    gpu: nav.gpu as never,
    crossOriginIsolated: self.crossOriginIsolated,
    // Pretend to 5 cores so the check exercises 4 WASM threads even on a 2-core machine.
    hardwareConcurrency: Math.max(5, nav.hardwareConcurrency),
  },
  fetch: self.fetch.bind(self),
});

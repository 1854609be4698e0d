import { serveTransformersEngine } from '@/lib/local/serve-transformers-engine';

// The on-device engine's Worker: generation runs here so the agent host stays responsive while a model works.
// It reads its own context's facts; URLs and the model host come from the host (engine/configure).
const nav = self.navigator as Navigator & { gpu?: unknown };
serveTransformersEngine(self as never, {
  facts: { gpu: nav.gpu as never, crossOriginIsolated: self.crossOriginIsolated, hardwareConcurrency: nav.hardwareConcurrency },
  fetch: self.fetch.bind(self),
});

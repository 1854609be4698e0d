/** A registered tool as getTools() reports it: a dictionary, so its keys come in code-point order, as native's. */
export interface PolyfillToolInfo {
  annotations?: Record<string, boolean>;
  description: string;
  inputSchema?: Record<string, unknown>;
  name: string;
  origin: string;
  /** Chrome 159's member (docs/webmcp-conformance.md); Chromium 156 neither takes nor lists it. */
  outputSchema?: Record<string, unknown>;
  title: string;
  window: Window;
}

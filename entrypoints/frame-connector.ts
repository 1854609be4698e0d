import { startFrameConnector } from '@/lib/isolated-world/start-frame-connector';

/**
 * The bridge's side in the frame's isolated world, injected by the background (scripting.executeScript) once the
 * frame shows WebMCP or its tab is watched: it reads and runs this frame's tools for the router.
 */
export default defineUnlistedScript(() => startFrameConnector(window, browser.runtime));

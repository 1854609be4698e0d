import { startPageConnector } from '@/lib/page-world/start-page-connector';

/**
 * The bridge's side in the page's world, injected by the background (scripting.executeScript, world MAIN) once the
 * frame shows WebMCP or its tab is watched: the polyfill takes over from the stub, and the isolated world's
 * bridge reads and runs the page's tools through it.
 */
export default defineUnlistedScript(() => startPageConnector(window));

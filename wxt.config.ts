import preact from '@preact/preset-vite';
import { defineConfig } from 'wxt';

/**
 * One source, two builds: Chrome MV3 (side panel, offscreen agent host) and Firefox MV3
 * (sidebar, background page as agent host). Permissions are justified one by one in README.md.
 */
export default defineConfig({
  manifestVersion: 3,
  vite: () => ({ plugins: [preact()] }),
  manifest: ({ browser }) => ({
    name: 'WebMCP Agent',
    description: 'An agent for any page that exposes WebMCP tools: on-device, or in the cloud with your own key.',
    permissions: [
      'storage',
      'unlimitedStorage',
      ...(browser === 'firefox' ? [] : ['sidePanel', 'offscreen']),
    ],
    host_permissions: ['<all_urls>'],
    action: { default_title: 'Open WebMCP Agent' },
    content_security_policy: {
      extension_pages: "script-src 'self' 'wasm-unsafe-eval'; object-src 'self'",
    },
    ...(browser === 'firefox'
      ? {
          browser_specific_settings: {
            gecko: {
              id: 'webmcp-agent@webmcp-agent.dev',
              strict_min_version: '142.0',
              data_collection_permissions: { required: ['none'] },
            },
          },
        }
      : {
          // Cross-origin isolation lets the offscreen agent host run multi-threaded WASM.
          cross_origin_embedder_policy: { value: 'require-corp' },
          cross_origin_opener_policy: { value: 'same-origin' },
        }),
  }),
});

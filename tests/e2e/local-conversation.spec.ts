import { NO_WEBGPU_NOTE } from '../../lib/local/create-local-adapter';
import { toolCard } from './browser';
import { expect, test } from './fixtures';
import { downloadModel, openPageWithPanel, Q4_FILE, send, startTestModelHost, useModelHost } from './local-helpers';

test.describe.configure({ timeout: 180_000 });
test.skip(
  ({ nativeWebMCP }) => nativeWebMCP,
  'The engine runs the same on both WebMCP paths (page tools on the native path: bridge-*.spec.ts); the polyfill project covers it.',
);

/** The model adds three to the page's counter, then answers from the tool's result. */
const SCRIPT = {
  reply: '<tool_call>\n{"name": "counter_increment", "arguments": {"n": 3}}\n</tool_call>',
  afterToolResult: 'Done: the counter went up by three.',
};

for (const device of ['wasm', 'webgpu'] as const) {
  test.describe(device === 'webgpu' ? 'on WebGPU (SwiftShader)' : 'on WASM', () => {
    test.use({ extraArgs: device === 'webgpu' ? ['--enable-unsafe-webgpu'] : [] });

    test(`the on-device model calls a page tool and answers from its result (${device})`, async ({
      context,
      server,
      serviceWorker,
      extensionId,
    }, testInfo) => {
      const host = await startTestModelHost(SCRIPT);
      try {
        await useModelHost(serviceWorker, host);
        const { page, panel } = await openPageWithPanel(context, serviceWorker, extensionId, `${server.url}/imperative.html`);
        const card = panel.locator('.status-card');
        await expect(card.getByRole('heading', { name: 'Download the model' })).toBeVisible({ timeout: 30_000 });
        // The engine Worker's own device choice shows on the card: the CPU note only when it found no WebGPU
        // adapter. The same memoised choice loads the model (device and dtype), so this is the device that runs it.
        if (device === 'webgpu') await expect(card.getByText(NO_WEBGPU_NOTE)).toHaveCount(0);
        else await expect(card.getByText(NO_WEBGPU_NOTE)).toBeVisible();

        const started = Date.now();
        await downloadModel(panel);
        testInfo.annotations.push({ type: 'download and load (ms)', description: String(Date.now() - started) });
        // q4 on both: no shader-f16 on SwiftShader, and WASM never takes q4f16.
        expect(host.downloads(Q4_FILE)).toBe(1);
        expect(host.downloads('onnx/model.onnx')).toBe(0);
        expect(host.downloads('model_q4f16.onnx')).toBe(0);

        const asked = Date.now();
        await send(panel, 'Please add three to the counter');
        // The page does not mark counter_increment read-only: by default the person allows it first.
        await toolCard(panel, 'counter_increment').getByRole('button', { name: 'Allow once' }).click({ timeout: 60_000 });
        await expect(toolCard(panel, 'counter_increment').locator('.tool-state')).toHaveText('done', { timeout: 60_000 });
        await expect(panel.locator('.conversation .markdown').last()).toContainText('Done: the counter went up by three.', {
          timeout: 60_000,
        });
        testInfo.annotations.push({ type: 'question to answer (ms)', description: String(Date.now() - asked) });
        // The call really ran in the page.
        await expect(page.locator('#count')).toHaveText('3');
        await expect(panel.getByRole('button', { name: 'Send' })).toBeVisible();
      } finally {
        await host.close();
      }
    });
  });
}

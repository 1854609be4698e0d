import { toolCard } from './browser';
import { expect, test } from './fixtures';
import { downloadModel, openPageWithPanel, Q4_FILE, send, startTestModelHost, useModelHost } from './local-helpers';

test.describe.configure({ timeout: 180_000 });
test.skip(({ nativeWebMCP }) => nativeWebMCP, 'The engine runs the same on both WebMCP paths; the polyfill project covers it.');

/**
 * One conversation per call-format family the catalog offers, each through the extension with a test model that has
 * that family's template structure and special tokens, served under the catalog id whose settings (stop marker,
 * history style, thinking off) it then runs with. Qwen3's own conversation is local-conversation.spec.ts. LFM3 shares
 * LFM2.5's format but runs only on WebGPU with shader-f16, which neither WASM nor SwiftShader offers here.
 */
const FAMILIES = [
  {
    name: 'LFM (Python-style calls between <|tool_call_start|> and <|tool_call_end|>)',
    modelId: 'LiquidAI/LFM2.5-1.2B-Instruct-ONNX',
    script: {
      family: 'lfm' as const,
      reply: 'Adding three.<|tool_call_start|>[counter_increment(n=3)]<|tool_call_end|>',
      afterToolResult: 'Done: the LFM model added three.',
    },
  },
  {
    name: 'Qwen3.5 (<tool_call><function=…><parameter=…>)',
    modelId: 'onnx-community/Qwen3.5-0.8B-ONNX',
    script: {
      family: 'qwen3.5' as const,
      reply: '<tool_call>\n<function=counter_increment>\n<parameter=n>\n3\n</parameter>\n</function>\n</tool_call>',
      afterToolResult: 'Done: the Qwen3.5 model added three.',
    },
  },
];

for (const { name, modelId, script } of FAMILIES) {
  test(`${name}: the model calls a page tool through its own template and answers from the result`, async ({
    context,
    server,
    serviceWorker,
    extensionId,
  }) => {
    const host = await startTestModelHost(script, { modelId });
    try {
      await useModelHost(serviceWorker, host, modelId);
      const { page, panel } = await openPageWithPanel(context, serviceWorker, extensionId, `${server.url}/imperative.html`);
      await expect(panel.locator('.status-card').getByRole('heading', { name: 'Download the model' })).toBeVisible({
        timeout: 30_000,
      });
      await downloadModel(panel);
      // The selected catalog model was the one fetched (q4 on WASM), under its own id.
      expect(host.downloads(`${modelId}/${Q4_FILE}`)).toBe(1);

      await send(panel, 'Please add three to the counter');
      // counter_increment is not marked read-only, so the default policy asks first.
      await toolCard(panel, 'counter_increment').getByRole('button', { name: 'Allow once' }).click({ timeout: 60_000 });
      await expect(toolCard(panel, 'counter_increment').locator('.tool-state')).toHaveText('done', { timeout: 60_000 });
      await expect(panel.locator('.conversation .markdown').last()).toContainText(script.afterToolResult, {
        timeout: 60_000,
      });
      await expect(page.locator('#count')).toHaveText('3');
      // No call markers leak into what the person reads.
      await expect(panel.locator('.conversation')).not.toContainText(/tool_call|<function=/);
    } finally {
      await host.close();
    }
  });
}

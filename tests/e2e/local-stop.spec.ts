import { toolCard } from './browser';
import { expect, test } from './fixtures';
import { downloadModel, openPageWithPanel, send, startTestModelHost, useModelHost } from './local-helpers';

test.describe.configure({ timeout: 180_000 });
test.skip(
  ({ nativeWebMCP }) => nativeWebMCP,
  'Stop acts on the engine, which runs the same on both WebMCP paths: the polyfill project covers it.',
);

/**
 * "chatter" makes the model call the page's echo tool with the word "ramble"; the tool's result then holds "ramble",
 * which makes the next step talk until its reply budget (512 tokens) runs out. A plain message gets a greeting.
 */
const SCRIPT = {
  reply: 'Hello from the test model.',
  afterToolResult: 'Done.',
  triggers: [
    { word: 'chatter', reply: '<tool_call>\n{"name": "echo", "arguments": {"text": "ramble"}}\n</tool_call>' },
    { word: 'ramble', reply: 'and so on, ', loop: true },
  ],
};

// On SwiftShader's WebGPU the 512-token reply takes about ten seconds here (about 1.5 s on WASM, too short to stop
// half-way reliably): a long generation to interrupt.
test.use({ extraArgs: ['--enable-unsafe-webgpu'] });

test('Stop interrupts a long on-device reply, and Retry carries on after the finished tool call', async ({
  context,
  server,
  serviceWorker,
  extensionId,
}, testInfo) => {
  const host = await startTestModelHost(SCRIPT);
  try {
    await useModelHost(serviceWorker, host);
    const { panel } = await openPageWithPanel(context, serviceWorker, extensionId, `${server.url}/imperative.html`);
    await downloadModel(panel);
    const stopped = panel.getByRole('heading', { name: 'Stopped' });

    const stop = async (label: string) => {
      const clicked = Date.now();
      await panel.getByRole('button', { name: 'Stop' }).click();
      await expect(stopped).toBeVisible({ timeout: 30_000 });
      testInfo.annotations.push({ type: `${label}: Stop to "Stopped" (ms)`, description: String(Date.now() - clicked) });
      await expect(panel.getByText('You stopped the reply. Press Retry to continue where it left off.')).toBeVisible();
      await expect(panel.getByRole('button', { name: 'Send' })).toBeVisible();
    };

    await send(panel, 'Please chatter');
    // The page does not mark echo read-only: by default the person allows it first.
    await toolCard(panel, 'echo').getByRole('button', { name: 'Allow once' }).click({ timeout: 60_000 });
    // The echo call is done: the endless step is generating now.
    await expect(toolCard(panel, 'echo').locator('.tool-state')).toHaveText('done', { timeout: 60_000 });
    await expect(panel.getByRole('button', { name: 'Stop' })).toBeVisible();
    await stop('first');
    // Nothing of the interrupted reply is shown as an answer.
    await expect(panel.locator('.conversation .markdown')).toHaveCount(0);

    // Retry resumes after the echo call (not made again). Were the engine still generating the stopped reply, the
    // adapter would answer "busy" here instead of running.
    await panel.getByRole('button', { name: 'Retry' }).click();
    await expect(stopped).toHaveCount(0);
    await expect(panel.getByRole('button', { name: 'Stop' })).toBeVisible();
    await expect(toolCard(panel, 'echo')).toHaveCount(1);
    await stop('after Retry');
    await expect(panel.getByText('Something went wrong')).toHaveCount(0);

    // A new chat gets its answer: the engine is free and its cache sound after two stops.
    await panel.getByRole('button', { name: 'New chat' }).click();
    await expect(toolCard(panel, 'echo')).toHaveCount(0);
    const asked = Date.now();
    await send(panel, 'Hello');
    await expect(panel.locator('.conversation .markdown').last()).toHaveText('Hello from the test model.', {
      timeout: 60_000,
    });
    testInfo.annotations.push({ type: 'next question to answer (ms)', description: String(Date.now() - asked) });
  } finally {
    await host.close();
  }
});

import type { CompactionCut } from '../../lib/audit/describe-compaction';
import { CHARACTERS_PER_TOKEN } from '../../lib/audit/estimate-tokens';
import type { AuditState } from './create-audit-state';

/**
 * "What the model sees": for a request the author types, the tools, schemas and system prompt each adapter would
 * send in its first step (create-audit-state.ts builds them with the adapters' own code). Shown as text only.
 */
export function ModelPreviewView({ audit }: { audit: AuditState }) {
  const preview = audit.preview.value;
  return (
    <section class="model-preview" aria-labelledby="preview-title">
      <h2 id="preview-title">What the model sees</h2>
      <p class="muted">
        Type a request as a visitor would. The on-device agent ranks the page's tools against it and shows a small model only the best few,
        compacted; the cloud agent sends every tool. Below is each one's first step, as it would be sent.
      </p>
      <label for="preview-request">Request</label>
      <input
        id="preview-request"
        type="text"
        placeholder="add a medium blue T-shirt to my cart"
        value={audit.request.value}
        onInput={(e) => (audit.request.value = e.currentTarget.value)}
      />
      {preview && (
        <>
          <section class="preview-adapter" aria-labelledby="preview-local">
            <h3 id="preview-local">On-device: {preview.model.label}</h3>
            <p class="preview-figures">
              {preview.onDevice.tools.length} of {preview.onDevice.ranking.length} tools shown · about {preview.onDevice.estimatedTokens}{' '}
              tokens (an estimate: {CHARACTERS_PER_TOKEN} characters a token, before the chat template's own)
              {preview.model.contextTokens ? ` of the ${preview.model.contextTokens} the model is given` : ''}.
              {preview.onDevice.search ? ' The model can search the rest with find_tools.' : ''}
            </p>
            <ol class="preview-ranking" aria-label="Tools ranked for this request">
              {preview.onDevice.ranking.map((tool) => (
                <li key={tool.name} data-shown={tool.shown ? 'yes' : 'no'}>
                  <code>{tool.name}</code> {tool.shown ? 'shown' : 'not shown'}
                  {tool.score > 0 ? ` · score ${tool.score.toFixed(2)}` : ' · no word of the request matches'}
                  {tool.shown && (preview.onDevice.cuts[tool.name] ?? []).length > 0 && (
                    <ul class="preview-cuts" aria-label={`What the prompt leaves out of ${tool.name}`}>
                      {(preview.onDevice.cuts[tool.name] ?? []).map((cut) => (
                        <li key={`${cut.kind}-${cut.path}`}>{describeCut(cut)}</li>
                      ))}
                    </ul>
                  )}
                </li>
              ))}
            </ol>
            <details>
              <summary>System prompt</summary>
              <Block title="The on-device system prompt" text={preview.onDevice.messages[0]?.content} />
            </details>
            {preview.onDevice.templateTools ? (
              <details>
                <summary>Tools, as the chat template gets them</summary>
                <Block title="The on-device tools" text={JSON.stringify(preview.onDevice.templateTools, null, 2)} />
              </details>
            ) : (
              <p class="muted">This model's template has no tools: they are listed in the system prompt.</p>
            )}
            <details>
              <summary>The request</summary>
              <Block
                title="The on-device request"
                text={preview.onDevice.messages
                  .slice(1)
                  .map((turn) => turn.content)
                  .join('\n\n')}
              />
            </details>
          </section>
          <section class="preview-adapter" aria-labelledby="preview-cloud">
            <h3 id="preview-cloud">Cloud</h3>
            <p class="preview-figures">
              {preview.cloud.tools.length} tools, every one the site's agent may use (cloud models are not given a ranked few).
            </p>
            <details>
              <summary>System prompt</summary>
              <Block title="The cloud system prompt" text={preview.cloud.system} />
            </details>
            <details>
              <summary>Tools</summary>
              <Block title="The cloud tools" text={JSON.stringify(preview.cloud.tools, null, 2)} />
            </details>
          </section>
          <p class="muted">
            Tool results reach the model inside a tag with a random name made for each run; here it is called page-data-preview.
          </p>
        </>
      )}
    </section>
  );
}

function describeCut(cut: CompactionCut): string {
  switch (cut.kind) {
    case 'description':
      return `${cut.path}: ${cut.to} of ${cut.from} characters`;
    case 'enum':
      return `${cut.path}: the first ${cut.to} of ${cut.from} values`;
    case 'alternatives':
      return `${cut.path}: the first ${cut.to} of ${cut.from} alternatives`;
    case 'dropped':
      return `${cut.path}: ${cut.keywords.join(', ')} left out`;
    case 'too-deep':
      return `${cut.path}: too deep, shown as an empty object`;
  }
}

/** A block of text that scrolls: keyboard users reach it too (axe scrollable-region-focusable). */
function Block({ title, text }: { title: string; text: string | undefined }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling block must be reachable by keyboard (axe scrollable-region-focusable).
    <pre tabIndex={0} title={title}>
      {text}
    </pre>
  );
}

import type { LocalModelInfo } from '../../lib/messaging/options-messages';
import { describedBy, Field } from './field';
import { formatBytes } from '../shared/format-bytes';
import { formatSeconds } from '../../lib/shared/format-seconds';
import { NoticeText } from './notice-text';
import type { OptionsState } from './options-state';

/** The on-device catalog (sizes, what is downloaded, space taken, Delete) and the host models download from. */
export function OnDeviceSection({ state }: { state: OptionsState }) {
  const draft = state.draft.value;
  const listing = state.localModels.value;
  if (!draft) return null;
  const models = listing.state === 'ready' ? listing.value : [];
  const stored = models.filter((m) => m.cached);
  const storedBytes = stored.reduce((sum, m) => sum + (m.storedBytes ?? m.bytes ?? 0), 0);
  const selected = draft.localModelId || models.find((m) => m.recommended)?.id || '';
  const hostError = state.errors.value.modelHost;

  return (
    <section class="card" aria-labelledby="on-device-title">
      <h2 id="on-device-title">On-device</h2>
      <p class="intro">Models download only when you start one from the side panel, and stay on this device until you delete them.</p>

      {listing.state === 'loading' || listing.state === 'idle' ? (
        <p class="placeholder">Reading the model catalog…</p>
      ) : listing.state === 'error' ? (
        <div class="problem">
          <p>The model catalog could not be read: {listing.message}</p>
          <button type="button" class="button" onClick={() => void state.refreshLocalModels()}>
            Try again
          </button>
        </div>
      ) : models.length === 0 ? (
        <p class="placeholder">This browser has no on-device models: use the cloud agent instead.</p>
      ) : (
        <fieldset class="models">
          <legend>Use on this device</legend>
          <ul class="model-list">
            {models.map((m) => (
              <ModelRow key={m.id} model={m} checked={selected === m.id} state={state} />
            ))}
          </ul>
          <p class="summary">
            {stored.length === 0 ? 'No model is downloaded yet.' : `Downloaded models take ${formatBytes(storedBytes)} on this device.`}
          </p>
        </fieldset>
      )}
      <NoticeText notice={state.localNotice.value} />

      <Field
        id="model-host"
        label="Download host"
        error={hostError}
        hint="Where models are downloaded from: https://huggingface.co, or a mirror or offline copy with the same layout."
      >
        <input
          id="model-host"
          type="url"
          inputMode="url"
          spellcheck={false}
          autoComplete="off"
          value={draft.modelHost}
          aria-invalid={!!hostError}
          aria-describedby={describedBy('model-host', true, hostError)}
          onInput={(e) => state.edit('modelHost', e.currentTarget.value)}
        />
      </Field>
    </section>
  );
}

// The Delete button the person clicked is replaced by the question: keep focus there, on the harmless answer.
const focusOnMount = (element: HTMLButtonElement | null) => element?.focus();

function ModelRow({ model, checked, state }: { model: LocalModelInfo; checked: boolean; state: OptionsState }) {
  const id = `local-model-${model.id.replace(/[^a-zA-Z0-9_-]/g, '-')}`;
  const pending = state.pendingDelete.value === model.id;
  const size = model.bytes !== undefined ? `${formatBytes(model.bytes)} download${model.dtype ? ` (${model.dtype})` : ''}` : undefined;
  return (
    <li class={`model${checked ? ' model--selected' : ''}`}>
      <div class="model-main">
        <input
          type="radio"
          id={id}
          name="local-model"
          value={model.id}
          checked={checked}
          aria-describedby={`${id}-details`}
          onChange={() => state.edit('localModelId', model.id)}
        />
        <label for={id} class="model-name">
          {model.label}
          {model.recommended ? <span class="badge">Recommended</span> : null}
        </label>
        <span class={`state-pill${model.cached ? ' state-pill--on' : ''}`}>
          {model.cached ? `Downloaded${model.storedBytes !== undefined ? ` · ${formatBytes(model.storedBytes)}` : ''}` : 'Not downloaded'}
        </span>
      </div>
      <div class="model-details" id={`${id}-details`}>
        <p>{model.brief}</p>
        <p class="meta">{[size, model.hardware].filter(Boolean).join(' · ')}</p>
      </div>
      {model.cached ? (
        pending ? (
          <div class="confirm-row">
            <span id={`${id}-confirm`}>
              Delete {model.label}
              {(model.storedBytes ?? model.bytes) ? ` and free ${formatBytes(model.storedBytes ?? model.bytes ?? 0)}` : ''}? You can
              download it again later.
            </span>
            <button type="button" class="button button--danger" onClick={() => void state.confirmDelete()}>
              Delete
            </button>
            <button type="button" class="button" ref={focusOnMount} aria-describedby={`${id}-confirm`} onClick={() => state.cancelDelete()}>
              Keep
            </button>
          </div>
        ) : (
          <div class="model-actions">
            <button
              type="button"
              class="button button--quiet"
              aria-label={`Test this device with ${model.label}`}
              disabled={state.deviceTest.value?.state === 'testing'}
              onClick={() => void state.testDevice(model.id)}
            >
              Test this device
            </button>
            <button
              type="button"
              class="button button--quiet"
              aria-label={`Delete ${model.label}`}
              onClick={() => state.requestDelete(model.id)}
            >
              Delete
            </button>
          </div>
        )
      ) : null}
      <DeviceTestLine model={model} state={state} id={`${id}-test`} />
    </li>
  );
}

/** The model's "Test this device" line: running, failed (why), or the figures last measured here. */
function DeviceTestLine({ model, state, id }: { model: LocalModelInfo; state: OptionsState; id: string }) {
  const running = state.deviceTest.value;
  if (running?.modelId === model.id && running.state === 'testing') {
    return (
      <div class="device-test" id={id} role="status">
        <progress aria-label={`Testing ${model.label}`} />
        <span>Testing: loading {model.label}, reading a 1,000-token prompt with six tools, then writing up to 128 tokens…</span>
      </div>
    );
  }
  if (running?.modelId === model.id && running.state === 'failed') {
    return (
      <p class="device-test device-test--failed" id={id} role="alert">
        {running.message}
      </p>
    );
  }
  const r = model.deviceTest;
  if (!r) return null;
  const figures = [
    `First token in ${formatSeconds(r.firstTokenMs)} (${r.promptTokens.toLocaleString('en')}-token prompt)`,
    r.tokensPerSecond !== undefined ? `${r.tokensPerSecond} tokens/s writing` : 'too short a reply to time the writing',
    r.memoryBytes !== undefined
      ? `${formatBytes(r.memoryBytes)} held (${r.memorySource === 'weights+kv' ? 'the weights on this device plus the KV cache' : 'the weights on this device'})`
      : undefined,
  ].filter(Boolean);
  const where = r.device === 'webgpu' ? `WebGPU, ${r.dtype}` : `CPU, ${r.dtype}`;
  return (
    <p class="device-test" id={id}>
      Tested on this device ({where}, {new Date(r.testedAt).toLocaleDateString()}): {figures.join(' · ')}.
    </p>
  );
}

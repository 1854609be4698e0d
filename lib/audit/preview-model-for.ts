import type { CallFormat } from '../agent/local-provider';
import type { ModelChoice } from '../agent/types';
import { modelCatalog, recommendedModel } from '../local/model-catalog';
import { PROMPT_API_CHOICE } from '../local/recommend-model';

/** The on-device model "What the model sees" is for. */
export interface PreviewModel {
  label: string;
  toolsInline: boolean;
  callFormat: CallFormat;
  /** The context the loop lets a prompt and its reply use, in tokens. */
  contextTokens?: number;
}

/**
 * The on-device model a picker choice names, as the preview needs it: Chrome's built-in model (tools inline, calls
 * as text), a catalog model, or the recommended one when the choice names no model of the catalog (or there is none).
 *
 * @param choice The model the person picked in the panel, or the recommended one; undefined when the panel has none.
 */
export function previewModelFor(choice: Pick<ModelChoice, 'id' | 'label'> | undefined): PreviewModel {
  if (choice?.id === PROMPT_API_CHOICE) return { label: choice.label, toolsInline: true, callFormat: 'text' };
  const spec = modelCatalog.find((m) => m.id === choice?.id) ?? recommendedModel();
  return { label: spec.label, toolsInline: spec.toolsInline, callFormat: spec.callFormat, contextTokens: spec.contextTokens };
}

import { describe, expect, it } from 'vitest';
import { modelCatalog, recommendedModel } from '../local/model-catalog';
import { PROMPT_API_CHOICE } from '../local/recommend-model';
import { previewModelFor } from './preview-model-for';

describe('previewModelFor', () => {
  it('previews Chrome’s built-in model with the tools inline and calls written as text, under the picker’s label', () => {
    expect(previewModelFor({ id: PROMPT_API_CHOICE, label: 'Chrome built-in AI' })).toEqual({
      label: 'Chrome built-in AI',
      toolsInline: true,
      callFormat: 'text',
    });
  });

  it('previews a catalog model with its own call format and context, whatever label the choice carries', () => {
    const other = modelCatalog.find((m) => !m.recommended) ?? modelCatalog[0];
    expect(previewModelFor({ id: other.id, label: 'anything' })).toEqual({
      label: other.label,
      toolsInline: other.toolsInline,
      callFormat: other.callFormat,
      contextTokens: other.contextTokens,
    });
  });

  it('falls back to the recommended model when the choice names none of the catalog, or there is no choice', () => {
    const recommended = recommendedModel();
    const expected = {
      label: recommended.label,
      toolsInline: recommended.toolsInline,
      callFormat: recommended.callFormat,
      contextTokens: recommended.contextTokens,
    };
    expect(previewModelFor({ id: 'someone/unknown-model', label: 'Unknown' })).toEqual(expected);
    expect(previewModelFor(undefined)).toEqual(expected);
  });
});

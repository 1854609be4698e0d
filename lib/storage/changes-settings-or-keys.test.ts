import { describe, expect, it } from 'vitest';
import { changesSettingsOrKeys } from './changes-settings-or-keys';

describe('changesSettingsOrKeys', () => {
  it('is true for a setting or a key, false for conversations and anything else', () => {
    expect(changesSettingsOrKeys({ 'settings.cloud': {} })).toBe(true);
    expect(changesSettingsOrKeys({ 'secret.apiKey.openai': {} })).toBe(true);
    expect(changesSettingsOrKeys({ conversations: {}, 'conversation:abc': {} })).toBe(false);
    expect(changesSettingsOrKeys({ 'bridge:watched': {}, settingsX: {} })).toBe(false);
    expect(changesSettingsOrKeys({})).toBe(false);
  });
});

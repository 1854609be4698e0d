/**
 * Whether a storage change touches the settings or a provider's key (`settings.*`, `secret.*`): what the agent host
 * keeps in memory from them (the saved keys it redacts, the adapters it runs) is read again only after one does.
 * Conversations, written all the time, touch neither.
 */
export function changesSettingsOrKeys(changes: Record<string, unknown>): boolean {
  return Object.keys(changes).some((key) => key.startsWith('settings.') || key.startsWith('secret.'));
}

/** Thrown by the settings store when input is refused; nothing was written. errors: one message per field. */
export class SettingsValidationError extends Error {
  readonly errors: Record<string, string>;

  constructor(errors: Record<string, string>) {
    super(Object.values(errors).join(' '));
    this.name = 'SettingsValidationError';
    this.errors = errors;
  }
}

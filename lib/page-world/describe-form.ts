/**
 * A declarative form described as a tool, as native Chromium 156 describes it (docs/webmcp-conformance.md): its
 * name, title, description and the JSON Schema of its named controls, grouped by name as native groups them.
 */
/** The tool a form declares: name, description and a JSON Schema synthesised from its named controls. */
export function describeForm(form: HTMLFormElement): {
  name: string;
  title: string;
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, unknown>; required: string[] };
} {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const [name, controls] of groupControls(form)) {
    const schema = controlSchema(controls);
    if (!schema) continue;
    properties[name] = schema;
    if (controls.some((c) => (c as HTMLInputElement).required)) required.push(name);
  }
  return {
    name: form.getAttribute('toolname') ?? '',
    title: form.getAttribute('tooltitle') ?? '',
    description: form.getAttribute('tooldescription') ?? '',
    inputSchema: { type: 'object', properties, required },
  };
}

export type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

/** What native groups by name: every listed form control, buttons, fieldsets and outputs too (not objects). */
export type Listed = Control | HTMLButtonElement | HTMLFieldSetElement | HTMLOutputElement;
const LISTED_TAGS = new Set(['INPUT', 'SELECT', 'TEXTAREA', 'BUTTON', 'FIELDSET', 'OUTPUT']);

/** Input types that take no value from an agent, though their names count (a field sharing one is no parameter). */
const UNFILLABLE_TYPES = new Set(['submit', 'button', 'reset', 'image', 'file']);

/** Input types whose `readonly` applies: a read-only one of these is no parameter, as native (it cannot be filled). */
const READ_ONLY_TYPES = new Set([
  'text',
  'search',
  'url',
  'tel',
  'email',
  'password',
  'date',
  'month',
  'week',
  'time',
  'datetime-local',
  'number',
]);

/** Input types whose `pattern` native puts in the schema (it does not for dates and times). */
const PATTERN_TYPES = new Set(['text', 'search', 'url', 'tel', 'email', 'password', 'number']);

/** Native Chromium 156's `format` for the date and time types other than `date`, and for colours: patterns, as it gives them. */
const FORMATS: Record<string, string> = {
  time: '^([01][0-9]|2[0-3]):[0-5][0-9]$',
  'datetime-local': '^[0-9]{4}-(0[1-9]|1[0-2])-[0-9]{2}T([01][0-9]|2[0-3]):[0-5][0-9]$',
  month: '^[0-9]{4}-(0[1-9]|1[0-2])$',
  week: '^[0-9]{4}-W(0[1-9]|[1-4][0-9]|5[0-3])$',
  color: '^#[0-9a-zA-Z]{6}$',
};

/** Native's note on a date field, after its description in parentheses or alone. */
const DATE_NOTE = "Dates MUST be provided in 'YYYY-MM-DD' format.";

/**
 * The form's controls by name, as native groups them (probed): every listed control that is not disabled (a
 * disabled fieldset's included) nor read-only where that applies. Buttons (image buttons too), file fields,
 * fieldsets and outputs count, so a field whose name one of them shares is no parameter. A control without a name
 * has the name "" (a parameter only when nothing else, a submit button included, is nameless).
 */
export function groupControls(form: HTMLFormElement): Map<string, Listed[]> {
  const groups = new Map<string, Listed[]>();
  // form.elements leaves out image buttons (for old pages' sake); native counts them. Where they come does not
  // matter: a name one of them has is no parameter.
  const inputs = new Set([
    ...Array.from(form.querySelectorAll('input')),
    ...Array.from(form.ownerDocument.querySelectorAll<HTMLInputElement>('input[form]')),
  ]);
  const images = [...inputs].filter((input) => input.type === 'image' && input.form === form);
  for (const element of [...Array.from(form.elements), ...images]) {
    const tag = element.tagName;
    if (!LISTED_TAGS.has(tag) || element.matches(':disabled')) continue;
    const readOnlyApplies = tag === 'TEXTAREA' || (tag === 'INPUT' && READ_ONLY_TYPES.has((element as HTMLInputElement).type));
    if (readOnlyApplies && element.hasAttribute('readonly')) continue;
    const control = element as Listed;
    const list = groups.get(control.name) ?? [];
    list.push(control);
    groups.set(control.name, list);
  }
  return groups;
}

/** Whether every one of these can take a value: inputs (not buttons nor files), selects and text areas. */
function fillable(controls: Listed[]): controls is Control[] {
  return controls.every(
    (c) =>
      c.tagName === 'SELECT' || c.tagName === 'TEXTAREA' || (c.tagName === 'INPUT' && !UNFILLABLE_TYPES.has((c as HTMLInputElement).type)),
  );
}

/** The text of a control's labels as native reads it: each label's text (not the control's own), trimmed, joined by "; ". */
function labelText(control: Control): string {
  return Array.from(control.labels ?? [])
    .map((label) => textOutside(label, control).trim())
    .filter(Boolean)
    .join('; ');
}

/** An element's text content without that of one of its descendants (a label's text without its select's options). */
function textOutside(root: Node, skip: Node): string {
  let text = '';
  for (const child of Array.from(root.childNodes)) {
    if (child === skip) continue;
    text += child.nodeType === 3 ? (child.nodeValue ?? '') : textOutside(child, skip);
  }
  return text;
}

function describeControl(control: Control): string | undefined {
  return control.getAttribute('toolparamdescription') || labelText(control) || control.getAttribute('aria-description') || undefined;
}

/** A number as HTML parses a valid floating-point number attribute, or undefined. */
function parseNumber(value: string | null): number | undefined {
  if (value === null || !/^-?(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][-+]?\d+)?$/.test(value)) return undefined;
  const number = Number(value);
  return Number.isFinite(number) ? number : undefined;
}

/** `{type, const, title}` for each choice (no title where it has none), with `enum` beside, as native lists them. */
function choices(values: [value: string, title: string | undefined][]): { type: 'string'; anyOf: unknown[]; enum: string[] } {
  return {
    type: 'string',
    anyOf: values.map(([value, title]) =>
      title === undefined ? { type: 'string', const: value } : { type: 'string', const: value, title },
    ),
    enum: values.map(([value]) => value),
  };
}

/**
 * A parameter's schema, as native Chromium 156 gives it (keys in its order; `description` last): probed control by
 * control (docs/webmcp-conformance.md). A name shared by controls that are neither all radio buttons nor all
 * checkboxes is no parameter of the schema.
 */
export function controlSchema(listed: Listed[]): Record<string, unknown> | undefined {
  if (!fillable(listed)) return undefined;
  const controls = listed;
  const first = controls[0];
  const type = first.tagName === 'INPUT' ? (first as HTMLInputElement).type : first.tagName;
  const description = describeControl(first);
  const withDescription = (schema: Record<string, unknown>) => (description ? { ...schema, description } : schema);
  const titled = (control: Control): [string, string | undefined] => [control.value, labelText(control) || undefined];
  // Radio buttons: one choice each, titled by its labels; native gives the group no description.
  if (controls.every((c) => c.tagName === 'INPUT' && (c as HTMLInputElement).type === 'radio')) return choices(controls.map(titled));
  if (controls.length > 1) {
    // Checkboxes sharing a name: native offers them as a set of their values.
    if (controls.every((c) => c.tagName === 'INPUT' && (c as HTMLInputElement).type === 'checkbox')) {
      return { type: 'array', items: choices(controls.map(titled)), uniqueItems: true };
    }
    return undefined;
  }
  if (type === 'SELECT') {
    const options = choices(Array.from((first as HTMLSelectElement).options).map((o) => [o.value, o.text]));
    // As native: a <select multiple> takes an array of its option values.
    if ((first as HTMLSelectElement).multiple) return withDescription({ type: 'array', items: options, uniqueItems: true });
    return withDescription(options);
  }
  if (type === 'TEXTAREA') return withDescription({ type: 'string' });
  const input = first as HTMLInputElement;
  if (type === 'checkbox') return withDescription({ type: 'boolean' });
  if (type === 'hidden') return input.hasAttribute('toolparamdescription') ? withDescription({ type: 'string' }) : undefined;
  if (type === 'date') {
    return { type: 'string', format: 'date', description: description ? `${description} (${DATE_NOTE})` : DATE_NOTE };
  }
  if (type in FORMATS) return withDescription({ type: 'string', format: FORMATS[type] });
  const schema: Record<string, unknown> = { type: type === 'number' || type === 'range' ? 'number' : 'string' };
  if (schema.type === 'number') {
    // A range has a minimum and maximum even without min and max (0 and 100).
    const min = parseNumber(input.getAttribute('min')) ?? (type === 'range' ? 0 : undefined);
    const max = parseNumber(input.getAttribute('max')) ?? (type === 'range' ? 100 : undefined);
    if (min !== undefined) schema.minimum = min;
    if (max !== undefined) schema.maximum = max;
    // multipleOf is the step (1 unless a valid positive step is given; none for step="any"), given only where the
    // values the step allows are its multiples: where the step base (min, else value, else 0) is one.
    const stepAttribute = input.getAttribute('step');
    if (stepAttribute?.trim().toLowerCase() !== 'any') {
      const given = parseNumber(stepAttribute);
      const step = given !== undefined && given > 0 ? given : 1;
      const base = parseNumber(input.getAttribute('min')) ?? parseNumber(input.getAttribute('value')) ?? 0;
      const ratio = base / step;
      if (Math.abs(ratio - Math.round(ratio)) < 1e-9) schema.multipleOf = step;
    }
  }
  if (PATTERN_TYPES.has(type) && input.hasAttribute('pattern')) schema.pattern = input.getAttribute('pattern');
  return withDescription(schema);
}

import { readSchemaFields } from '../../lib/call-log/read-schema-fields';

/** A schema as a table a person can read: each field's path, type, whether it is required, and its details. */
export function SchemaTable({ schema, label }: { schema: unknown; label: string }) {
  const { fields, truncated } = readSchemaFields(schema);
  if (fields.length === 0) return <p class="muted">No parameters.</p>;
  return (
    <>
      <table class="schema-table" aria-label={label}>
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Type</th>
            <th scope="col">Details</th>
          </tr>
        </thead>
        <tbody>
          {fields.map((field) => (
            <tr key={field.path}>
              <th scope="row" data-depth={field.depth}>
                <code>{field.path}</code>
                {field.required && <span class="required"> required</span>}
              </th>
              <td>
                <code>{field.type}</code>
              </td>
              <td>
                {field.description && <span class="field-description">{field.description}</span>}
                {field.enum && <span class="field-meta">One of: {field.enum.map((v) => JSON.stringify(v)).join(', ')}</span>}
                {field.default !== undefined && <span class="field-meta">Default: {JSON.stringify(field.default)}</span>}
                {field.format && <span class="field-meta">Format: {field.format}</span>}
                {field.ref && <span class="field-meta">Reference: {field.ref}</span>}
                {field.secret && <span class="field-meta">Secret: masked in exports</span>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {truncated && <p class="muted">The schema is larger than shown here.</p>}
    </>
  );
}

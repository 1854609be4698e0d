/**
 * The tool registerTool takes: a ModelContextTool dictionary read as WebIDL converts it, then checked as registerTool's
 * steps check it, each step throwing what native Chromium throws, in its order.
 */
import { thrownMessage } from '../page-data/describe-thrown';
import { failedToExecute } from './failed-to-execute';
import { readToolAnnotations } from './read-tool-annotations';
import { toUSVString } from './read-usv-string-sequence';
import type { ToolInvocation } from './tool-continuations';

/** A tool once registerTool has checked it: its schemas kept as JSON text, taken at registration. */
export interface CheckedTool {
  name: string;
  title: string;
  description: string;
  schemaJson?: string;
  outputSchemaJson?: string;
  annotations?: Record<string, boolean>;
  execute: (input: unknown, client: { signal: AbortSignal; invocation: ToolInvocation }) => unknown;
}

/** A ModelContextTool dictionary as WebIDL converts it, before registerTool's own checks. */
export interface ReadTool {
  name: string;
  title: string;
  description: string;
  inputSchema: unknown;
  outputSchema: unknown;
  annotations?: Record<string, boolean>;
  execute: CheckedTool['execute'];
}

const NAME_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;

/**
 * Reads a ModelContextTool dictionary the way WebIDL converts it (every member read once, in code-point order), or
 * throws the TypeError native throws. The checks registerTool's steps make come later ({@link checkModelContextTool}).
 */
export function readModelContextTool(tool: unknown): ReadTool {
  if (typeof tool !== 'object' || tool === null) {
    throw new TypeError(failedToExecute('registerTool', "The provided value is not of type 'ModelContextTool'."));
  }
  const t = tool as Record<string, unknown>;
  const annotations = t.annotations;
  const description = t.description;
  const execute = t.execute;
  const inputSchema = t.inputSchema;
  const name = t.name;
  const outputSchema = t.outputSchema;
  const title = t.title;
  for (const [member, value] of [
    ['description', description],
    ['execute', execute],
    ['name', name],
  ] as const) {
    if (value === undefined) {
      throw new TypeError(
        failedToExecute('registerTool', `Failed to read the '${member}' property from 'ModelContextTool': Required member is undefined.`),
      );
    }
  }
  if (typeof execute !== 'function') {
    throw new TypeError(
      failedToExecute(
        'registerTool',
        "Failed to read the 'execute' property from 'ModelContextTool': The provided value is not a function.",
      ),
    );
  }
  return {
    name: String(name),
    title: title === undefined ? '' : toUSVString(String(title)),
    description: String(description),
    inputSchema,
    outputSchema,
    annotations: readToolAnnotations(annotations),
    execute: (input, client) => Reflect.apply(execute as CheckedTool['execute'], undefined, [input, client]),
  };
}

/**
 * registerTool's checks of a read tool, in native's order, or throws what native throws. `registered`: the tools this
 * document has now, by name.
 */
export function checkModelContextTool(read: ReadTool, registered: ReadonlyMap<string, unknown>): CheckedTool {
  const { inputSchema, outputSchema, ...rest } = read;
  if (!NAME_PATTERN.test(read.name)) throw new DOMException('Invalid tool name', 'InvalidStateError');
  if (read.description === '') throw new DOMException('Description is required', 'InvalidStateError');
  if (registered.has(read.name)) throw new DOMException('Duplicate tool name', 'InvalidStateError');
  // Like Chromium: the schema is serialised at registration, so a cyclic one rejects here, for the page to see.
  let schemaJson: string | undefined;
  if (inputSchema !== undefined) {
    try {
      schemaJson = JSON.stringify(inputSchema);
    } catch (error) {
      throw new TypeError(failedToExecute('registerTool', thrownMessage(error)));
    }
    if (schemaJson === undefined) throw new TypeError(failedToExecute('registerTool', 'invalid input schema: toJSON() returns undefined'));
  }
  // The outputSchema is kept the same way, so the page sees a cyclic one fail at registration too.
  let outputSchemaJson: string | undefined;
  if (outputSchema !== undefined) {
    try {
      outputSchemaJson = JSON.stringify(outputSchema);
    } catch (error) {
      throw new TypeError(failedToExecute('registerTool', thrownMessage(error)));
    }
    if (outputSchemaJson === undefined)
      throw new TypeError(failedToExecute('registerTool', 'invalid output schema: toJSON() returns undefined'));
  }
  return { ...rest, schemaJson, ...(outputSchemaJson === undefined ? {} : { outputSchemaJson }) };
}

import { thrownMessage } from '../page-data/describe-thrown';
import { failedToExecute } from './failed-to-execute';

/**
 * executeTool's input as native takes it, as JSON text: missing or undefined is a fresh `{}`; anything else must be
 * an object (arrays are objects) that serialises to JSON; the tool gets a copy, as it would from another document.
 */
export function readToolInputJson(input: unknown): string {
  if (input === undefined) return '{}';
  if (typeof input !== 'object' || input === null) {
    throw new TypeError(failedToExecute('executeTool', 'invalid input object: value is not an object'));
  }
  let json: string | undefined;
  try {
    json = JSON.stringify(input);
  } catch (error) {
    throw new TypeError(failedToExecute('executeTool', `invalid input object: ${thrownMessage(error)}`));
  }
  if (json === undefined) throw new TypeError(failedToExecute('executeTool', 'invalid input object: toJSON() returns undefined'));
  return json;
}

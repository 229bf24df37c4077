import { RememError } from '../core/index.ts';
import type { JsonObject, JsonValue } from './types.ts';

/** How a JSON file was written, so that rewriting it keeps its look. */
export interface JsonFormat {
  indent: string;
  eol: '\n' | '\r\n';
  finalNewline: boolean;
  bom: boolean;
}

export const defaultJsonFormat: JsonFormat = { indent: '  ', eol: '\n', finalNewline: true, bom: false };

export function detectJsonFormat(text: string): JsonFormat {
  const indented = /^([ \t]+)\S/m.exec(text)?.[1];
  const indent = indented === undefined ? '' : indented.startsWith('\t') ? '\t' : indented;
  return {
    indent,
    eol: text.includes('\r\n') ? '\r\n' : '\n',
    finalNewline: /\n$/.test(text),
    bom: text.startsWith('\uFEFF'),
  };
}

/** Reads an agent's JSON settings; a file that is not a JSON object is refused, naming the file. */
export function parseJsonObject(
  path: string,
  text: string | null,
): { value: JsonObject; format: JsonFormat } {
  if (text === null) return { value: {}, format: defaultJsonFormat };
  const format = detectJsonFormat(text);
  const body = format.bom ? text.slice(1) : text;
  if (body.trim() === '') return { value: {}, format: { ...defaultJsonFormat, bom: format.bom } };
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    throw new RememError(
      'bad_agent_file',
      `${path} is not valid JSON (${(error as Error).message}); fix or move it, then run remem setup again. Nothing was written.`,
    );
  }
  if (!isObject(value)) {
    throw new RememError('bad_agent_file', `${path} does not hold a JSON object; nothing was written.`);
  }
  return { value, format };
}

export function serializeJson(value: JsonValue, format: JsonFormat): string {
  let text = JSON.stringify(value, null, format.indent);
  if (format.finalNewline) text += '\n';
  if (format.eol === '\r\n') text = text.replace(/\n/g, '\r\n');
  return format.bom ? `\uFEFF${text}` : text;
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Equal values with keys in the same order: what makes two serialisations the same bytes. */
export function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

import { RememError } from '../core/index.ts';
import type { Wanted } from './agents.ts';

// The user's config.toml is never reformatted: Remem's table travels as one delimited block of text.
const BEGIN = '# >>> remem: written by `remem setup`; `remem setup --remove` takes it out';
const END = '# <<< remem';

/** A TOML basic string: JSON's escapes are a subset of TOML's. */
function tomlString(value: string): string {
  return JSON.stringify(value);
}

export function codexBlock(wanted: Wanted, eol = '\n'): string {
  const lines = [BEGIN, '[mcp_servers.remem]', `command = ${tomlString(wanted.binary)}`, 'args = ["mcp"]'];
  if (wanted.customHome) lines.push('', '[mcp_servers.remem.env]', `REMEM_HOME = ${tomlString(wanted.home)}`);
  lines.push(END);
  return lines.join(eol) + eol;
}

/** Where Remem's block sits in the text, end included with its line break. */
export function findBlock(text: string): { start: number; end: number } | null {
  const start = text.indexOf(BEGIN);
  if (start < 0 || (start > 0 && text[start - 1] !== '\n')) return null;
  const close = text.indexOf(END, start);
  if (close < 0) return null;
  let end = close + END.length;
  if (text.startsWith('\r\n', end)) end += 2;
  else if (text[end] === '\n') end += 1;
  return { start, end };
}

const rememTable = /^\s*\[\s*mcp_servers\s*\.\s*(?:remem|"remem"|'remem')\s*[\].]/;
const rememDottedKey = /^\s*mcp_servers\s*\.\s*(?:remem|"remem"|'remem')\s*[.=]/;
const rememKey = /^\s*(?:remem|"remem"|'remem')\s*[.=]/;
const anyTable = /^\s*\[\[?\s*([^\]]*?)\s*\]/;

/** True when the text (outside Remem's block) defines a `remem` MCP server in any TOML spelling. */
export function hasForeignRememServer(text: string): boolean {
  const block = findBlock(text);
  const outside = block ? text.slice(0, block.start) + text.slice(block.end) : text;
  let table = '';
  for (const line of outside.split(/\r?\n/)) {
    const header = anyTable.exec(line);
    if (header) table = (header[1] ?? '').replace(/\s+/g, '');
    if (rememTable.test(line)) return true;
    if (table === '' && rememDottedKey.test(line)) return true;
    if (table === 'mcp_servers' && rememKey.test(line)) return true;
  }
  return false;
}

export interface TomlEdit {
  after: string;
  block: string;
  prefix: string;
}

/** Adds Remem's block at the end, or updates it where it stands. */
export function installTomlBlock(
  path: string,
  text: string | null,
  wanted: Wanted,
  prefixBefore?: string,
): TomlEdit {
  const current = text ?? '';
  if (hasForeignRememServer(current)) {
    throw new RememError(
      'setup_conflict',
      `${path} already has an [mcp_servers.remem] table that remem setup did not write; ` +
        'remove or rename it, then run remem setup again. Nothing was written.',
    );
  }
  const eol = current.includes('\r\n') ? '\r\n' : '\n';
  const block = codexBlock(wanted, eol);
  const found = findBlock(current);
  if (found) {
    const after = current.slice(0, found.start) + block + current.slice(found.end);
    return { after, block, prefix: prefixBefore ?? inferPrefix(current, found.start, eol) };
  }
  const prefix = current === '' ? '' : current.endsWith('\n') ? eol : eol + eol;
  return { after: current + prefix + block, block, prefix };
}

function inferPrefix(text: string, start: number, eol: string): string {
  return text.slice(0, start).endsWith(eol + eol) ? eol : '';
}

/** Takes Remem's block out, with the separator it was given, leaving the rest byte for byte. */
export function removeTomlBlock(text: string, prefix?: string): string {
  const found = findBlock(text);
  if (!found) return text;
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const separator = prefix ?? inferPrefix(text, found.start, eol);
  const before = text.slice(0, found.start);
  const cut = before.endsWith(separator) ? found.start - separator.length : found.start;
  return text.slice(0, cut) + text.slice(found.end);
}

export function hasRememBlock(text: string): boolean {
  return findBlock(text) !== null;
}

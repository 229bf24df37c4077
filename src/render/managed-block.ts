/**
 * A clearly marked block Remem owns inside a file someone else owns (MEMORY.md, AGENTS.md): replaced in
 * place, everything outside the markers left exactly as it was.
 */
export const BEGIN = '<!-- remem:begin (managed by remem: this block is rewritten every night) -->';
export const END = '<!-- remem:end -->';

export function withoutBlock(text: string): string {
  const start = text.indexOf(BEGIN);
  const stop = text.indexOf(END);
  if (start === -1 || stop === -1 || stop < start) return text;
  let after = text.slice(stop + END.length);
  if (after.startsWith('\n')) after = after.slice(1);
  let before = text.slice(0, start);
  if (before.endsWith('\n\n')) before = before.slice(0, -1);
  return before + after;
}

/** The file with the block set to `lines` (no block at all when there are none). */
export function withBlock(text: string, lines: readonly string[]): string {
  const start = text.indexOf(BEGIN);
  const stop = text.indexOf(END);
  const block = lines.length ? [BEGIN, ...lines, END].join('\n') : '';
  if (start !== -1 && stop > start) {
    const before = text.slice(0, start);
    let after = text.slice(stop + END.length);
    if (!block) return withoutBlock(text);
    if (!after.startsWith('\n')) after = `\n${after}`;
    return before + block + after;
  }
  if (!block) return text;
  const separator = text === '' ? '' : text.endsWith('\n\n') ? '' : text.endsWith('\n') ? '\n' : '\n\n';
  return `${text}${separator}${block}\n`;
}

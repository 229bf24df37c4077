/**
 * Calls `visit` for each line of `bytes` from `from`, numbering lines from `firstLine + 1`.
 * Blank lines are counted but not visited; a trailing carriage return is dropped.
 * The bytes are decoded once: decoding line by line costs more than parsing them.
 */
export function forEachLine(
  bytes: Buffer,
  from: number,
  firstLine: number,
  visit: (line: number, text: string) => void,
): number {
  const text = bytes.toString('utf8', from);
  let line = firstLine;
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    line++;
    let stop = end;
    if (stop > start && text.charCodeAt(stop - 1) === 13) stop--;
    if (stop > start) visit(line, text.slice(start, stop));
    start = end + 1;
  }
  return line;
}

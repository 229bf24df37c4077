/** Lines longer than `maxBytes` are not visited but handed to `skip` with their length in bytes. */
export interface LongLines {
  maxBytes: number;
  skip(line: number, bytes: number): void;
}

/**
 * Calls `visit` with the byte range of each line of `bytes` from `from`, numbering lines from `firstLine + 1`.
 * Blank lines are counted but not visited; a trailing carriage return is left out. Returns the last line's number.
 */
export function forEachLineRange(
  bytes: Buffer,
  from: number,
  firstLine: number,
  visit: (line: number, start: number, end: number) => void,
  long?: LongLines,
): number {
  let line = firstLine;
  let start = from;
  while (start < bytes.length) {
    let end = bytes.indexOf(10, start);
    if (end === -1) end = bytes.length;
    line++;
    let stop = end;
    if (stop > start && bytes[stop - 1] === 13) stop--;
    if (long && stop - start > long.maxBytes) long.skip(line, stop - start);
    else if (stop > start) visit(line, start, stop);
    start = end + 1;
  }
  return line;
}

/** Like `forEachLineRange`, with each line decoded from UTF-8. */
export function forEachLine(
  bytes: Buffer,
  from: number,
  firstLine: number,
  visit: (line: number, text: string) => void,
  long?: LongLines,
): number {
  return forEachLineRange(
    bytes,
    from,
    firstLine,
    (line, start, end) => visit(line, bytes.toString('utf8', start, end)),
    long,
  );
}

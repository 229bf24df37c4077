/** A plain-text table: a header row, a rule, and the rows; columns after the first `left` are right-aligned. */
export function renderTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  options: { left?: number } = {},
): string {
  const left = options.left ?? 1;
  const widths = header.map((cell, column) =>
    Math.max(cell.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => (column < left ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)].join('\n');
}

/** "28% (101 of 360)", or "–" when there is nothing to count. */
export function formatRate(k: number, n: number): string {
  if (n === 0) return '–';
  return `${formatPercent(k / n)} (${k} of ${n})`;
}

export function formatPercent(value: number | null): string {
  if (value === null) return '–';
  const percent = value * 100;
  return `${percent < 10 && percent !== 0 ? percent.toFixed(1) : Math.round(percent)}%`;
}

/** A p-value as papers print it: "< 0.0001" below that, two significant figures above. */
export function formatP(p: number | null): string {
  if (p === null) return '';
  if (p < 0.0001) return '< 0.0001';
  if (p >= 0.995) return '1.0';
  return p < 0.01 ? p.toPrecision(2) : p.toFixed(2);
}

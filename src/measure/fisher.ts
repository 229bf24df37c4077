/** A 2×2 table: `a` of `a + b` in the first group met the outcome, `c` of `c + d` in the second. */
export interface TwoByTwo {
  a: number;
  b: number;
  c: number;
  d: number;
}

const logFactorials: number[] = [0];

/** ln(n!) by summing logarithms, cached: exact to the last bits for the table sizes met here. */
export function logFactorial(n: number): number {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`logFactorial needs a whole number ≥ 0, got ${n}`);
  for (let k = logFactorials.length; k <= n; k++) logFactorials.push(logFactorials[k - 1]! + Math.log(k));
  return logFactorials[n]!;
}

/** ln of the hypergeometric probability of a table with these margins and `a` in the top-left cell. */
function logProbability(a: number, row1: number, row2: number, col1: number, n: number): number {
  const b = row1 - a;
  const c = col1 - a;
  const d = row2 - c;
  return (
    logFactorial(row1) +
    logFactorial(row2) +
    logFactorial(col1) +
    logFactorial(n - col1) -
    logFactorial(n) -
    logFactorial(a) -
    logFactorial(b) -
    logFactorial(c) -
    logFactorial(d)
  );
}

/**
 * Fisher's exact test, two-sided: the probability, with the margins fixed, of a table at most as likely as
 * the one observed (the rule R's `fisher.test` and SciPy's `fisher_exact` use, with the same relative
 * tolerance for ties). An empty row or column gives 1.
 */
export function fisherExact(table: TwoByTwo): number {
  const { a, b, c, d } = table;
  for (const cell of [a, b, c, d]) {
    if (!Number.isInteger(cell) || cell < 0) throw new RangeError('a 2×2 table holds whole counts ≥ 0');
  }
  const row1 = a + b;
  const row2 = c + d;
  const col1 = a + c;
  const n = row1 + row2;
  if (row1 === 0 || row2 === 0 || col1 === 0 || col1 === n) return 1;
  const low = Math.max(0, col1 - row2);
  const high = Math.min(row1, col1);
  const observed = logProbability(a, row1, row2, col1, n);
  // Tables as likely as the observed one, up to rounding, count as at most as likely.
  const bound = observed + Math.log1p(1e-7);
  let p = 0;
  for (let x = low; x <= high; x++) {
    const logP = logProbability(x, row1, row2, col1, n);
    if (logP <= bound) p += Math.exp(logP);
  }
  return Math.min(1, p);
}

/** The share `k / n`, or null when there is nothing to divide. */
export function share(k: number, n: number): number | null {
  return n === 0 ? null : k / n;
}

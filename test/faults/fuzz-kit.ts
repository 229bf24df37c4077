/**
 * Bad input, made on purpose: random values, and valid inputs damaged the way files and networks damage them
 * (a character changed, a cut, random bytes put in, a field replaced or removed). Each property runs through
 * `fc.check`, so the soak can count failures instead of stopping at the first.
 */
import fc from 'fast-check';

export interface FuzzOutcome {
  name: string;
  runs: number;
  failures: string[];
  /** Runs in which valid input beside bad input was lost. */
  lost: number;
}

export interface FuzzOptions {
  numRuns: number;
  seed?: number;
}

function shown(value: unknown): string {
  try {
    return fc.stringify(value).slice(0, 400);
  } catch {
    return String(value).slice(0, 400);
  }
}

/**
 * Runs `test` on `numRuns` generated values; `test` answers null when the value was handled as it should, or
 * what went wrong. A throw is a failure too. `keepsValid`: a failure of this property is data lost.
 */
export async function checkProperty<T>(
  name: string,
  arbitrary: fc.Arbitrary<T>,
  test: (value: T) => Promise<string | null> | string | null,
  options: FuzzOptions & { keepsValid?: boolean },
): Promise<FuzzOutcome> {
  let problem = '';
  const result = await fc.check(
    fc.asyncProperty(arbitrary, async (value) => {
      let answer: string | null;
      try {
        answer = await test(value);
      } catch (error) {
        answer = `threw ${(error as Error)?.stack?.split('\n').slice(0, 3).join(' ') ?? String(error)}`;
      }
      if (answer !== null) problem = answer;
      return answer === null;
    }),
    { numRuns: options.numRuns, ...(options.seed === undefined ? {} : { seed: options.seed }) },
  );
  const failures = result.failed
    ? [`${name}: ${problem} (input ${shown(result.counterexample?.[0])}; seed ${result.seed})`]
    : [];
  return { name, runs: result.numRuns, failures, lost: result.failed && options.keepsValid ? 1 : 0 };
}

/** Every path to a value inside `value` (objects and arrays), the root included. */
function pathsOf(value: unknown, prefix: (string | number)[] = [], out: (string | number)[][] = []) {
  out.push(prefix);
  if (out.length > 400) return out;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) pathsOf(item, [...prefix, index], out);
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) pathsOf(item, [...prefix, key], out);
  }
  return out;
}

function replaceAt(
  value: unknown,
  path: readonly (string | number)[],
  next: unknown,
  remove: boolean,
): unknown {
  if (path.length === 0) return next;
  const [head, ...rest] = path;
  if (Array.isArray(value)) {
    const copy = [...value];
    if (rest.length === 0 && remove) copy.splice(head as number, 1);
    else copy[head as number] = replaceAt(copy[head as number], rest, next, remove);
    return copy;
  }
  const copy = { ...(value as Record<string, unknown>) };
  if (rest.length === 0 && remove) delete copy[head as string];
  else copy[head as string] = replaceAt(copy[head as string], rest, next, remove);
  return copy;
}

/** A valid value with one place in it replaced by any JSON value, or removed. */
export function damagedValue(values: readonly unknown[]): fc.Arbitrary<unknown> {
  return fc
    .tuple(fc.constantFrom(...values), fc.nat(), fc.jsonValue({ maxDepth: 3 }), fc.boolean())
    .map(([value, at, next, remove]) => {
      const paths = pathsOf(value);
      return replaceAt(value, paths[at % paths.length]!, next, remove);
    });
}

/** A valid text damaged: a character replaced, a cut, random text put in, a piece repeated, or bytes flipped. */
export function damagedText(texts: readonly string[]): fc.Arbitrary<string> {
  return fc
    .tuple(
      fc.constantFrom(...texts),
      fc.nat(),
      fc.nat(),
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.integer({ min: 0, max: 4 }),
    )
    .map(([text, a, b, insert, how]) => {
      const i = text.length ? a % text.length : 0;
      const j = text.length ? b % text.length : 0;
      switch (how) {
        case 0:
          return text.slice(0, i) + (insert[0] ?? '\u0000') + text.slice(i + 1);
        case 1:
          return text.slice(0, i);
        case 2:
          return text.slice(0, i) + insert + text.slice(i);
        case 3:
          return text.slice(0, Math.max(i, j)) + text.slice(Math.min(i, j));
        default:
          return (
            text.slice(0, i) + String.fromCharCode(text.charCodeAt(i) ^ (1 << (b % 7))) + text.slice(i + 1)
          );
      }
    });
}

/** Any string, any JSON text, or a damaged valid text. */
export function badText(valid: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    fc.string({ unit: 'binary', maxLength: 200 }),
    fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value) ?? 'null'),
    damagedText(valid),
    damagedValue(valid.map((text) => JSON.parse(text) as unknown)).map(
      (value) => JSON.stringify(value) ?? '',
    ),
  );
}

/** A line that is not valid input for any reader: not a JSON object. */
export function garbageLine(valid: readonly string[]): fc.Arbitrary<string> {
  return fc
    .oneof(
      fc.string({ unit: 'binary', maxLength: 120 }),
      fc.uint8Array({ maxLength: 80 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
      fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.stringify(value) ?? 'null'),
      // A line cut short, as by a crash mid-write.
      fc
        .tuple(fc.constantFrom(...valid), fc.nat())
        .map(([line, at]) => line.slice(0, at % Math.max(1, line.length))),
    )
    .map((line) => line.replace(/[\r\n]/g, ' '))
    .filter((line) => {
      try {
        const value: unknown = JSON.parse(line);
        return typeof value !== 'object' || value === null || Array.isArray(value);
      } catch {
        return true;
      }
    });
}

/** `lines` with garbage lines put in at random places, and the garbage lines' 1-based numbers. */
export function withGarbage(
  lines: readonly string[],
  maxGarbage = 8,
): fc.Arbitrary<{ text: string; bad: number[] }> {
  return fc
    .array(fc.tuple(fc.nat(), garbageLine(lines)), { minLength: 1, maxLength: maxGarbage })
    .map((insertions) => {
      const out = lines.map((line) => ({ line, bad: false }));
      for (const [at, line] of insertions) out.splice(at % (out.length + 1), 0, { line, bad: true });
      return {
        text: `${out.map((entry) => entry.line).join('\n')}\n`,
        bad: out.flatMap((entry, index) => (entry.bad ? [index + 1] : [])),
      };
    });
}

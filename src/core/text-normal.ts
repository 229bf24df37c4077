/**
 * Text as a reader sees it, for judging: characters that display as nothing or as another letter are how an
 * instruction slips past a check that reads code points ("Ig\u200Bnore", "Ｉｇｎｏｒｅ", a Cyrillic "о").
 */

/**
 * Format and invisible characters: Unicode's Cf category (zero-width spaces and joiners, the word joiner, the
 * byte order mark, the soft hyphen, invisible operators, interlinear annotation marks, bidi controls, tags),
 * the variation selectors, the Mongolian vowel separator and the Hangul fillers, which are letters that show
 * nothing.
 */
const INVISIBLE = /[\p{Cf}\u180e\u3164\u115f\u1160\uffa0\ufff9-\ufffb]|\p{Variation_Selector}/u;
const INVISIBLE_ALL = new RegExp(INVISIBLE.source, 'gu');

/** Latin letters' look-alikes in Cyrillic and Greek that NFKC leaves alone. */
const CONFUSABLES: Record<string, string> = {
  а: 'a',
  в: 'b',
  е: 'e',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  с: 'c',
  т: 't',
  у: 'y',
  х: 'x',
  і: 'i',
  ј: 'j',
  ѕ: 's',
  ԁ: 'd',
  ԛ: 'q',
  ԝ: 'w',
  ӏ: 'l',
  ɡ: 'g',
  А: 'A',
  В: 'B',
  Е: 'E',
  К: 'K',
  М: 'M',
  Н: 'H',
  О: 'O',
  Р: 'P',
  С: 'C',
  Т: 'T',
  У: 'Y',
  Х: 'X',
  І: 'I',
  Ј: 'J',
  Ѕ: 'S',
  α: 'a',
  ο: 'o',
  ρ: 'p',
  ν: 'v',
  ι: 'i',
  κ: 'k',
  τ: 't',
  υ: 'u',
  χ: 'x',
  Α: 'A',
  Β: 'B',
  Ε: 'E',
  Η: 'H',
  Ι: 'I',
  Κ: 'K',
  Μ: 'M',
  Ν: 'N',
  Ο: 'O',
  Ρ: 'P',
  Τ: 'T',
  Υ: 'Y',
  Χ: 'X',
  Ζ: 'Z',
};
const CONFUSABLE = new RegExp(`[${Object.keys(CONFUSABLES).join('')}]`, 'gu');

/** The first format or invisible character in `text` (as `U+XXXX`), or null. */
export function findInvisible(text: string): string | null {
  const found = INVISIBLE.exec(text)?.[0];
  return found === undefined
    ? null
    : `U+${found.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** `text` without its format and invisible characters; everything else as it was. */
export function stripInvisible(text: string): string {
  return INVISIBLE.test(text) ? text.replace(INVISIBLE_ALL, '') : text;
}

/**
 * `text` as the checks judge it: invisible characters gone, NFKC (fullwidth and styled letters become plain
 * ones), and a Cyrillic or Greek look-alike inside a word of Latin letters folded to the Latin letter. A word
 * written wholly in Cyrillic or Greek stays as it is, so Russian and Greek text is judged as itself.
 */
export function normalizeForJudging(text: string): string {
  const plain = stripInvisible(text).normalize('NFKC');
  return plain.replace(/[\p{L}\p{M}]+/gu, (word) =>
    /[A-Za-z]/.test(word) ? word.replace(CONFUSABLE, (c) => CONFUSABLES[c] ?? c) : word,
  );
}

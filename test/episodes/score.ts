/**
 * Scores the cue detectors against the labelled development data (`../shared/data`, see its README):
 * load the four files → run each detector on every row → precision and recall, overall and per language.
 * Shared by `test/episodes/cues.test.ts` (which gates on the figures) and `bench/cues.ts` (which prints them).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  classifyHandback,
  detectCorrection,
  detectSurprise,
  ruleFailure,
} from '../../src/episodes/detect.ts';

export type DetectorName = 'correction' | 'handback' | 'failure' | 'surprise';
export const detectorNames: readonly DetectorName[] = ['correction', 'handback', 'failure', 'surprise'];

/** One labelled row after the detector ran on it. `expected`/`predicted` are the positive class. */
export interface ScoredRow {
  id: string;
  lang: string;
  soft: boolean;
  expected: boolean;
  predicted: boolean;
  /** Hand-backs only: the labelled and the detected subtype. */
  expectedKind?: string;
  predictedKind?: string;
}

export interface Figures {
  rows: number;
  tp: number;
  fp: number;
  fn: number;
  precision: number;
  recall: number;
}

/** The repository root, found from this file's place in it. */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Where the labelled data is: `dir` if given, else `$REMEM_DATA_DIR`, else `../shared/data` beside the repository. */
export function findDataDir(dir?: string): string {
  return resolve(dir ?? process.env['REMEM_DATA_DIR'] ?? resolve(repoRoot, '../shared/data'));
}

export function hasData(dir: string): boolean {
  return ['messages', 'handbacks', 'tool_failures', 'surprises'].every((file) =>
    existsSync(join(dir, `${file}.jsonl`)),
  );
}

export type Raw = Record<string, string>;

/** The rows of one data file (`messages`, `handbacks`, `tool_failures`, `surprises`). */
export function readRows(dir: string, file: string): Raw[] {
  return readFileSync(join(dir, `${file}.jsonl`), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Raw);
}

/** The `[xx]` tag in `why` names a non-English row; untagged rows are English. */
function languageOf(why: string): string {
  return /\[([a-z]{2})\]/.exec(why)?.[1] ?? 'en';
}

function base(row: Raw): Pick<ScoredRow, 'id' | 'lang' | 'soft'> {
  const why = row['why'] ?? '';
  return { id: row['id'] ?? '', lang: languageOf(why), soft: /^(?:\[[a-z]{2}\] )?soft\b/.test(why) };
}

/** Runs every detector over its file. */
export function scoreAll(dir: string): Record<DetectorName, ScoredRow[]> {
  const correction = readRows(dir, 'messages').map((row) => ({
    ...base(row),
    expected: row['label'] === 'correction',
    predicted: detectCorrection(row['said'] ?? '', row['agent_before'] ?? '') !== null,
  }));
  const handback = readRows(dir, 'handbacks').map((row) => {
    const found = classifyHandback(row['reply_tail'] ?? '');
    const scored: ScoredRow = {
      ...base(row),
      expected: row['label'] === 'handback',
      predicted: found !== null,
      expectedKind: row['subtype'] ?? 'none',
      predictedKind: found?.kind ?? 'none',
    };
    return scored;
  });
  const failure = readRows(dir, 'tool_failures').map((row) => ({
    ...base(row),
    expected: row['label'] === 'agent_mistake',
    // The rules alone: the learned detector is judged out-of-fold (test/episodes/cues.test.ts, bench/cues.ts).
    predicted:
      ruleFailure({
        tool: row['tool'] ?? '',
        input: row['input_summary'] ?? '',
        error: row['error_first_lines'] ?? '',
      }).kind === 'agent_mistake',
  }));
  const surprise = readRows(dir, 'surprises').map((row) => ({
    ...base(row),
    expected: row['label'] === 'surprise',
    predicted: detectSurprise(row['text'] ?? '') !== null,
  }));
  return { correction, handback, failure, surprise };
}

export function figuresOf(rows: readonly ScoredRow[]): Figures {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const row of rows) {
    if (row.predicted && row.expected) tp++;
    else if (row.predicted) fp++;
    else if (row.expected) fn++;
  }
  // With nothing predicted (or nothing to find) the ratio is undefined: NaN, printed as "—".
  return { rows: rows.length, tp, fp, fn, precision: tp / (tp + fp), recall: tp / (tp + fn) };
}

/** Share of labelled hand-backs that the detector found with the right subtype. */
export function subtypeAccuracy(rows: readonly ScoredRow[]): { right: number; of: number } {
  const found = rows.filter((row) => row.expected && row.predicted);
  return { right: found.filter((row) => row.expectedKind === row.predictedKind).length, of: found.length };
}

/** The slices every report shows: all rows, English, not English, then each language. */
export function slicesOf(rows: readonly ScoredRow[]): Array<{ name: string; rows: ScoredRow[] }> {
  const langs = [...new Set(rows.map((row) => row.lang))].filter((lang) => lang !== 'en').sort();
  return [
    { name: 'all', rows: [...rows] },
    { name: 'en', rows: rows.filter((row) => row.lang === 'en') },
    { name: 'non-en', rows: rows.filter((row) => row.lang !== 'en') },
    ...langs.map((lang) => ({ name: lang, rows: rows.filter((row) => row.lang === lang) })),
  ];
}

const percent = (value: number): string =>
  (Number.isNaN(value) ? '—' : `${(value * 100).toFixed(1)}%`).padStart(6);

/** A plain-text table: one line per detector and slice, with and without the `soft:` rows. */
export function formatTable(scored: Record<DetectorName, ScoredRow[]>): string {
  const lines = [
    'detector    slice    rows   P       R       | without soft: rows   P       R',
    '----------  ------  -----  ------  ------  |               -----  ------  ------',
  ];
  for (const name of detectorNames) {
    for (const slice of slicesOf(scored[name])) {
      const all = figuresOf(slice.rows);
      const firm = figuresOf(slice.rows.filter((row) => !row.soft));
      lines.push(
        `${name.padEnd(10)}  ${slice.name.padEnd(6)}  ${String(all.rows).padStart(5)}  ${percent(all.precision)}  ${percent(all.recall)}  |` +
          `               ${String(firm.rows).padStart(5)}  ${percent(firm.precision)}  ${percent(firm.recall)}`,
      );
    }
    if (name === 'handback') {
      const { right, of } = subtypeAccuracy(scored[name]);
      lines.push(`handback    subtype right on ${right} of ${of} hand-backs found (${percent(right / of)})`);
    }
  }
  return lines.join('\n');
}

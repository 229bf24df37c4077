/**
 * The labelled rows the learned detectors are fitted and judged on. Corrections: the rows of `messages.jsonl` in
 * the development data and its second batch, and every human turn of the labelled histories (a turn listed among
 * a history's corrections is one; every other human turn is not). Failed tool calls (`tool_failures.jsonl`),
 * agent paragraphs (`surprises.jsonl`) and turn closings (`handbacks.jsonl`): both batches. Each row keeps its repository, so that a cross-validation
 * can hold a whole repository out.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** What every labelled row has, whatever it labels. */
export interface LabelledRow {
  id: string;
  /** The repository the row came from: rows of one repository are never split between fitting and judging. */
  repo: string;
  set: 'batch1' | 'batch2' | 'histories';
  positive: boolean;
  soft: boolean;
  lang: string;
}

export interface LabelledMessage extends LabelledRow {
  said: string;
  before: string;
  /**
   * The message came right after another of the person's own, with no agent turn between: `before` holds the
   * agent's words the earlier one answered, and no hand-back is left to answer (as ingest reads such a message).
   */
  followsMessage?: boolean;
}

/** A failed tool call; positive when it was the agent's mistake, not the environment's. */
export interface LabelledFailure extends LabelledRow {
  tool: string;
  input: string;
  error: string;
}

/** The closing of an agent's turn; positive when it offers work the agent could do itself. */
export interface LabelledHandback extends LabelledRow {
  tail: string;
  /** 'offer', 'waiting', 'question' or 'none'. */
  subtype: string;
}

/** A paragraph of an agent's reply; positive when it states that the agent was wrong or surprised. */
export interface LabelledParagraph extends LabelledRow {
  text: string;
}

function languageOf(why: string): string {
  return /\[([a-z]{2})\]/.exec(why)?.[1] ?? 'en';
}

function isSoft(why: string): boolean {
  return /^(?:\[[a-z]{2}\] )?soft\b/.test(why);
}

/** The rows of one labelled file of both batches, each read by `read` beside the fields every row has. */
function batchRows<T extends LabelledRow>(
  dir: string,
  file: string,
  /** The positive label, or what makes a row positive. */
  positive: string | ((row: Record<string, string>) => boolean),
  read: (row: Record<string, string>) => Omit<T, keyof LabelledRow>,
): T[] {
  return (['batch1', 'batch2'] as const).flatMap((set) => {
    const path = set === 'batch1' ? join(dir, file) : join(dir, 'batch2', file);
    if (!existsSync(path)) throw new Error(`labelled data missing: ${path}`);
    return readFileSync(path, 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => {
        const row = JSON.parse(line) as Record<string, string>;
        const why = row['why'] ?? '';
        return {
          id: row['id'] ?? '',
          repo: (row['source'] ?? '').split(':')[0] ?? '',
          set,
          positive: typeof positive === 'string' ? row['label'] === positive : positive(row),
          soft: isSoft(why),
          lang: languageOf(why),
          ...read(row),
        } as T;
      });
  });
}

interface HistoryFile {
  source?: string;
  sessions: { id: string; turns: { role: string; text: string; n: number }[] }[];
  corrections: { session: string; turn: number; why: string }[];
}

/** The language a history is in, from the histories' README table (`lang` column); English when not listed. */
function historyLanguages(dir: string): Map<string, string> {
  const languages = new Map<string, string>();
  const readme = join(dir, 'README.md');
  if (!existsSync(readme)) return languages;
  for (const line of readFileSync(readme, 'utf8').split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    if (cells.length > 4 && /^[a-z]{2}$/.test(cells[3] ?? '')) languages.set(cells[1]!, cells[3]!);
  }
  return languages;
}

function historyRows(dir: string): LabelledMessage[] {
  const languages = historyLanguages(dir);
  const rows: LabelledMessage[] = [];
  for (const name of readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .sort()) {
    const history = JSON.parse(readFileSync(join(dir, name), 'utf8')) as HistoryFile;
    const repo = history.source ?? name.replace(/\.json$/, '');
    const labels = new Map(history.corrections.map((c) => [`${c.session}:${c.turn}`, c.why]));
    for (const session of history.sessions) {
      let before = '';
      // The agent's words a run of the person's messages answers: the exports keep some agent turns empty or out.
      let lastWords = '';
      for (const turn of session.turns) {
        if (turn.role !== 'user') {
          before = turn.text;
          if (turn.text.trim()) lastWords = turn.text;
          continue;
        }
        const why = labels.get(`${session.id}:${turn.n}`);
        const followsMessage = !before.trim() && lastWords !== '';
        rows.push({
          id: `${name}:${session.id}:${turn.n}`,
          repo,
          set: 'histories',
          said: turn.text,
          before: followsMessage ? lastWords : before,
          ...(followsMessage && { followsMessage }),
          positive: why !== undefined,
          soft: why !== undefined && isSoft(why),
          lang: languages.get(repo) ?? 'en',
        });
        before = '';
      }
    }
  }
  return rows;
}

/** Every labelled message under `dir` (`../shared/data`): both batches and the histories. Missing files are an error. */
export function readLabelledMessages(dir: string): LabelledMessage[] {
  const histories = join(dir, 'histories');
  if (!existsSync(histories)) throw new Error(`labelled data missing: ${histories}`);
  return [
    ...batchRows<LabelledMessage>(dir, 'messages.jsonl', 'correction', (row) => ({
      said: row['said'] ?? '',
      before: row['agent_before'] ?? '',
    })),
    ...historyRows(histories),
  ];
}

/** Every labelled failed tool call under `dir`, both batches. */
export function readLabelledFailures(dir: string): LabelledFailure[] {
  return batchRows<LabelledFailure>(dir, 'tool_failures.jsonl', 'agent_mistake', (row) => ({
    tool: row['tool'] ?? '',
    input: row['input_summary'] ?? '',
    error: row['error_first_lines'] ?? '',
  }));
}

/** Every labelled agent paragraph under `dir`, both batches. */
export function readLabelledParagraphs(dir: string): LabelledParagraph[] {
  return batchRows<LabelledParagraph>(dir, 'surprises.jsonl', 'surprise', (row) => ({
    text: row['text'] ?? '',
  }));
}

/** Every labelled closing of an agent's turn under `dir`, both batches; an offer is positive. */
export function readLabelledHandbacks(dir: string): LabelledHandback[] {
  return batchRows<LabelledHandback>(
    dir,
    'handbacks.jsonl',
    (row) => row['label'] === 'handback' && row['subtype'] === 'offer',
    (row) => ({ tail: row['reply_tail'] ?? '', subtype: row['subtype'] ?? 'none' }),
  );
}

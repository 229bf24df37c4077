/**
 * The labelled messages the correction detector is fitted and judged on: the rows of `messages.jsonl` in the
 * development data and its second batch, and every human turn of the labelled histories (a turn listed among a
 * history's corrections is one; every other human turn is not). Each row keeps its repository, so that a
 * cross-validation can hold a whole repository out.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface LabelledMessage {
  id: string;
  /** The repository the row came from: rows of one repository are never split between fitting and judging. */
  repo: string;
  set: 'batch1' | 'batch2' | 'histories';
  said: string;
  before: string;
  positive: boolean;
  soft: boolean;
  lang: string;
}

function languageOf(why: string): string {
  return /\[([a-z]{2})\]/.exec(why)?.[1] ?? 'en';
}

function isSoft(why: string): boolean {
  return /^(?:\[[a-z]{2}\] )?soft\b/.test(why);
}

function messageRows(file: string, set: 'batch1' | 'batch2'): LabelledMessage[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const row = JSON.parse(line) as Record<string, string>;
      const why = row['why'] ?? '';
      return {
        id: row['id'] ?? '',
        repo: (row['source'] ?? '').split(':')[0] ?? '',
        set,
        said: row['said'] ?? '',
        before: row['agent_before'] ?? '',
        positive: row['label'] === 'correction',
        soft: isSoft(why),
        lang: languageOf(why),
      };
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
      for (const turn of session.turns) {
        if (turn.role !== 'user') {
          before = turn.text;
          continue;
        }
        const why = labels.get(`${session.id}:${turn.n}`);
        rows.push({
          id: `${name}:${session.id}:${turn.n}`,
          repo,
          set: 'histories',
          said: turn.text,
          before,
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
  const files = [join(dir, 'messages.jsonl'), join(dir, 'batch2', 'messages.jsonl'), join(dir, 'histories')];
  for (const file of files) {
    if (!existsSync(file)) throw new Error(`labelled data missing: ${file}`);
  }
  return [
    ...messageRows(files[0]!, 'batch1'),
    ...messageRows(files[1]!, 'batch2'),
    ...historyRows(files[2]!),
  ];
}

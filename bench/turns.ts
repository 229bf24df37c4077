/**
 * `npm run bench -- turns [--histories DIR]`: the person's turns of the labelled histories read whole, as ingest
 * reads a session (`deriveEpisodes`: the message, the agent's turn before it and the agent's first words after
 * it), against their labels. Printed: the correction episodes found, the concession rule alone (a message the
 * agent's next reply concedes), and how many first corrections of a later repeat became episodes — the ceiling of
 * what the replay can catch. The shipped correction model was fitted on these turns too: its figure here is
 * in-sample. For the model's figure on turns it never saw, replay with `npm run train -- --without histories`.
 */
import { parseArgs } from 'node:util';
import { concedes, deriveEpisodes } from '../src/episodes/index.ts';
import { readHistories } from '../src/measure/index.ts';
import { findDataDir } from '../test/episodes/score.ts';

interface Tally {
  tp: number;
  fp: number;
  fn: number;
}

const figure = ({ tp, fp, fn }: Tally) =>
  `precision ${(tp / Math.max(1, tp + fp)).toFixed(2)}, recall ${(tp / Math.max(1, tp + fn)).toFixed(2)} (${tp} right, ${fp} wrong, ${fn} missed)`;

export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { histories: { type: 'string' } } });
  const dir = values.histories ?? `${findDataDir()}/histories`;
  const found: Tally = { tp: 0, fp: 0, fn: 0 };
  const conceded: Tally = { tp: 0, fp: 0, fn: 0 };
  let firsts = 0;
  let firstsFound = 0;
  for (const history of readHistories(dir)) {
    const labelled = new Set(history.corrections.map((c) => `${c.session}:${c.turn}`));
    const repeated = new Set(
      history.corrections.flatMap((c) => (c.repeats ? [`${c.repeats.session}:${c.repeats.turn}`] : [])),
    );
    for (const session of history.sessions) {
      const start = Date.parse(session.started);
      const items = session.turns.map((turn, index) => ({
        line: index + 1,
        part: 0,
        at: new Date(start + index * 1000).toISOString(),
        type: turn.role === 'user' ? ('prompt' as const) : ('reply' as const),
        text: turn.text,
      }));
      const { episodes } = deriveEpisodes({ agent: 'claude-code', session: session.id, cwd: '/p', items });
      const corrected = new Set(
        episodes
          .filter((episode) => episode.kind === 'correction')
          .map((episode) => session.turns[(episode.source.line ?? 0) - 1]?.n),
      );
      for (const [index, turn] of session.turns.entries()) {
        if (turn.role !== 'user') continue;
        const key = `${session.id}:${turn.n}`;
        const truth = labelled.has(key);
        const next = session.turns[index + 1];
        const tally = (t: Tally, said: boolean) => {
          if (said && truth) t.tp++;
          else if (said) t.fp++;
          else if (truth) t.fn++;
        };
        tally(found, corrected.has(turn.n));
        tally(conceded, next?.role === 'assistant' && concedes(next.text) !== null);
        if (repeated.has(key)) {
          firsts++;
          if (corrected.has(turn.n)) firstsFound++;
        }
      }
    }
  }
  console.log(`the person's turns of ${dir}, read whole:`);
  console.log(`  corrections found (the shipped model is in-sample here): ${figure(found)}`);
  console.log(`  the concession rule alone: ${figure(conceded)}`);
  console.log(`  first corrections of a later repeat that became episodes: ${firstsFound} of ${firsts}`);
}

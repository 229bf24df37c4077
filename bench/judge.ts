/**
 * The ceiling of the correction judge (`params.judge`): out-of-fold, as `npm run bench -- cues` scores the
 * detector (5 folds grouped by repository), the messages scored in a band under the shipped threshold are sent,
 * over the real OpenAI wire, to a local stand-in server that answers yes or no from the labels. The figures are
 * what a perfect judge would give, not what any model gives: the most the second stage can add, and its cost in
 * requests.
 */
import { parseArgs } from 'node:util';
import { chat, type Endpoint } from '../src/core/index.ts';
import { decidingRule } from '../src/episodes/detect.ts';
import { correctionThreshold } from '../src/episodes/model/correction.ts';
import { curve } from '../src/episodes/model/fit.ts';
import { type LabelledMessage, readLabelledMessages } from '../src/episodes/model/labelled.ts';
import { judgeRequest, verdictOf } from '../src/sleep/judge.ts';
import { findDataDir, hasData } from '../test/episodes/score.ts';
import { startChatServer } from '../test/helpers/chat-server.ts';
import { correctionScoredOutOfFold } from './cues-oof.ts';

const BANDS = [0.05, 0.1, 0.15, 0.2, 0.3];

const requestOf = (row: LabelledMessage) =>
  judgeRequest({ said: row.said, text: row.said, agentBefore: row.before });
const keyOf = (content: string) => content;

function pr(point: { precision: number; recall: number; tp: number; fp: number; fn: number }): string {
  return `P ${point.precision.toFixed(3)} R ${point.recall.toFixed(3)} (${point.tp}/${point.tp + point.fn}, ${point.fp} false)`;
}

export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { data: { type: 'string' } } });
  const dir = findDataDir(values.data);
  if (!hasData(dir)) throw new Error(`no labelled data in ${dir} (pass --data DIR or set REMEM_DATA_DIR)`);
  const rows = readLabelledMessages(dir);
  const { scored } = correctionScoredOutOfFold(rows);
  const threshold = correctionThreshold();
  const ruled = scored.map(({ row }) => decidingRule(row.said, row.before) !== null);
  const detected = scored.map(({ score }, i) => ruled[i]! || score >= threshold);

  // The stand-in judge: it looks the message up in the labelled rows and answers as the label says.
  const labels = new Map(rows.map((row) => [keyOf(requestOf(row)[1]!.content as string), row.positive]));
  const server = await startChatServer((seen) => {
    const label = labels.get(keyOf(seen.body.messages.at(-1)?.content ?? ''));
    return label === undefined ? { status: 404, body: 'unknown message' } : { content: label ? 'yes' : 'no' };
  });
  const endpoint: Endpoint = {
    api: 'openai',
    baseUrl: `${server.root}/v1`,
    model: 'labels',
    temperature: 0,
    timeoutMs: 5000,
    tries: 1,
    retryMs: 0,
  };
  // Each candidate is asked once, over the wire, whatever band it first falls in; the bands reuse the answers.
  const verdicts = new Map<number, boolean>();
  const widest = Math.max(...BANDS);
  try {
    for (const [i, { score }] of scored.entries()) {
      if (detected[i] || score < threshold - widest || score <= 0) continue;
      const reply = await chat(endpoint, requestOf(scored[i]!.row));
      verdicts.set(i, verdictOf(reply.content) === 'yes');
    }
  } finally {
    await server.close();
  }
  // Two rows with the same words and opposite labels get one answer: counted, so the ceiling says how exact it is.
  const disagreed = [...verdicts].filter(([i, yes]) => yes !== scored[i]!.positive).length;

  const section = (name: string, keep: (row: LabelledMessage) => boolean) => {
    const at = scored.flatMap((s, i) => (keep(s.row) ? [i] : []));
    const point = (decide: (i: number) => boolean) =>
      curve(
        at.map((i) => ({ score: decide(i) ? 1 : 0, positive: scored[i]!.positive })),
        [1],
      )[0]!;
    const lines = [
      `${name} — ${at.length} messages, ${at.filter((i) => scored[i]!.positive).length} corrections`,
      `  without the judge (rules or model ≥ ${threshold}): ${pr(point((i) => detected[i]!))}`,
    ];
    for (const band of BANDS) {
      const inBand = (i: number) =>
        !detected[i] && scored[i]!.score >= threshold - band && scored[i]!.score > 0 && verdicts.has(i);
      const asked = at.filter(inBand);
      const yes = asked.filter((i) => verdicts.get(i)).length;
      lines.push(
        `  with a perfect judge on [${(threshold - band).toFixed(2)}, ${threshold}): ${pr(point((i) => detected[i]! || (inBand(i) && verdicts.get(i) === true)))}; ${asked.length} requests (${((asked.length / at.length) * 1000).toFixed(1)} per 1,000 messages), ${yes} yes`,
      );
    }
    return lines.join('\n');
  };
  console.log(
    [
      'The correction judge, its ceiling: a stand-in server on the OpenAI wire answers from the labels, so these are',
      'the figures with a PERFECT judge — the most the second stage can add, not what a model gives. Out-of-fold',
      `(5 folds grouped by repository, the shipped settings); requests sent over the wire: ${server.seen.length}; answers`,
      `that disagreed with their row's own label (the same words labelled both ways): ${disagreed}.`,
      '',
      section('all rows', () => true),
      '',
      section(
        'second batch and histories (rows neither the rules nor the threshold were written from)',
        (r) => r.set !== 'batch1',
      ),
    ].join('\n'),
  );
}

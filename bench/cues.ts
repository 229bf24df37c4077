/**
 * `npm run bench -- cues [--data DIR]`: the cue detectors' precision and recall on the labelled data (as the
 * test gates them), then their speed on the same rows as a ratio to floors measured in this run: lower-casing
 * the same strings, and `normalizeText` over them (which every detector does first).
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  classifyFailure,
  classifyHandback,
  detectCorrection,
  detectSurprise,
  normalizeText,
} from '../src/episodes/detect.ts';
import { offersWork } from '../src/episodes/detect-handback.ts';
import { trainables } from '../src/episodes/training.ts';
import { findDataDir, formatTable, hasData, readRows, scoreAll } from '../test/episodes/score.ts';
import { correctionOutOfFold } from './cues-oof.ts';
import { learnedOutOfFold } from './learned-oof.ts';

// Results are kept here so the engine cannot drop a call whose result nobody reads.
const sink: unknown[] = [];

/** Runs `call` over every input (once to warm up, then until `minMs` have passed); returns milliseconds per call. */
function timePerCall<T>(inputs: readonly T[], call: (input: T) => unknown, minMs = 400): number {
  for (const input of inputs) sink[0] = call(input);
  let calls = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < minMs) {
    for (const input of inputs) sink[0] = call(input);
    calls += inputs.length;
    elapsed = performance.now() - start;
  }
  return elapsed / calls;
}

function slowestCall<T>(inputs: readonly T[], call: (input: T) => unknown): number {
  let worst = 0;
  for (const input of inputs) {
    const start = performance.now();
    sink[0] = call(input);
    worst = Math.max(worst, performance.now() - start);
  }
  return worst;
}

/**
 * Precision and recall on offers of a decision that the reply hands back with one (`fires`), and how many replies
 * that wait for the person it takes for one.
 */
function stopReminder(
  rows: readonly Record<string, string>[],
  fires: (row: Record<string, string>) => boolean,
): string {
  const isOffer = (row: Record<string, string>) => row['label'] === 'handback' && row['subtype'] === 'offer';
  const offers = rows.filter(isOffer).length;
  const fired = rows.filter(fires);
  const right = fired.filter(isOffer).length;
  const waiting = rows.filter((row) => row['label'] === 'handback' && row['subtype'] === 'waiting');
  const wrong = waiting.filter(fires).length;
  const ratio = (k: number, n: number) => (n === 0 ? '–' : (k / n).toFixed(2));
  return `P ${ratio(right, fired.length)} R ${ratio(right, offers)} on ${offers} offers; waiting reminded ${wrong} of ${waiting.length} (${waiting.length ? Math.round((wrong / waiting.length) * 100) : 0}%)`;
}

export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { data: { type: 'string' } } });
  const dir = findDataDir(values.data);
  if (!hasData(dir)) throw new Error(`no labelled data in ${dir} (pass --data DIR or set REMEM_DATA_DIR)`);
  console.log(correctionOutOfFold(dir));
  for (const spec of trainables.filter((spec) => spec.detector !== 'correction'))
    console.log(`\n${learnedOutOfFold(spec, dir)}`);
  // The detectors some of whose rules were written after reading the second batch's misses (`rulesReadSecondBatch`).
  const readNames = trainables
    .filter((spec) => spec.rulesReadSecondBatch)
    .map((spec) => spec.detector)
    .join(' and ');
  console.log(
    `\nIn-sample: the rule sets were written from these rows (first batch), so these figures describe the rows, not the detectors; the second batch is rows they never saw but for the ${readNames} rules, some of which were written after reading its misses (agent_mistake is the positive class of failures; the failure rows are the rules alone, the learned failure detector is judged above):\n`,
  );
  console.log(formatTable(scoreAll(dir)));
  console.log(
    `\nOn the second batch (the ${readNames} rules gained general patterns after its misses were read, so their rows here are in-sample; the shipped correction model was fitted on these rows too, so its correction rows here are in-sample; its honest figure is the out-of-fold one above):\n`,
  );
  console.log(formatTable(scoreAll(join(dir, 'batch2'))));
  console.log(
    '\nThe Stop reminder: it fires on a reply that hands back with an offer, and must not on one waiting for what only the person has. As the hook decides (the rules read an offer and the shipped offer model agrees: `offersWork`), in-sample on both batches, since the shipped model was fitted on them (its out-of-fold figures are in the offer detector above); and the rules alone, which were written from the first batch:\n',
  );
  const hook = (row: Record<string, string>) => offersWork(row['reply_tail'] ?? '');
  const rules = (row: Record<string, string>) => classifyHandback(row['reply_tail'] ?? '')?.kind === 'offer';
  for (const [name, folder] of [
    ['first batch', dir],
    ['second batch', join(dir, 'batch2')],
  ] as const) {
    const rows = readRows(folder, 'handbacks');
    console.log(
      `${name}: as the hook decides ${stopReminder(rows, hook)}; the rules alone ${stopReminder(rows, rules)}`,
    );
  }

  const messages = readRows(dir, 'messages').map((row) => ({
    said: row['said'] ?? '',
    before: row['agent_before'] ?? '',
  }));
  const tails = readRows(dir, 'handbacks').map((row) => row['reply_tail'] ?? '');
  const paragraphs = readRows(dir, 'surprises').map((row) => row['text'] ?? '');
  const failures = readRows(dir, 'tool_failures').map((row) => ({
    tool: row['tool'] ?? '',
    input: row['input_summary'] ?? '',
    error: row['error_first_lines'] ?? '',
  }));
  const detectors = [
    {
      name: 'detectCorrection',
      texts: messages.map((m) => m.said + m.before),
      call: () => timePerCall(messages, (m) => detectCorrection(m.said, m.before)),
      worst: () => slowestCall(messages, (m) => detectCorrection(m.said, m.before)),
    },
    {
      name: 'classifyHandback',
      texts: tails,
      call: () => timePerCall(tails, classifyHandback),
      worst: () => slowestCall(tails, classifyHandback),
    },
    {
      name: 'detectSurprise',
      texts: paragraphs,
      call: () => timePerCall(paragraphs, detectSurprise),
      worst: () => slowestCall(paragraphs, detectSurprise),
    },
    {
      name: 'classifyFailure',
      texts: failures.map((f) => f.input + f.error),
      call: () => timePerCall(failures, classifyFailure),
      worst: () => slowestCall(failures, classifyFailure),
    },
  ];

  console.log(
    '\nSpeed on the same rows (ratio = time per call / floor time per call on the same strings):\n',
  );
  console.log('detector           calls/s   × toLowerCase   × normalizeText   slowest call');
  for (const detector of detectors) {
    const lower = timePerCall(detector.texts, (text) => text.toLowerCase());
    const normalized = timePerCall(detector.texts, normalizeText);
    const perCall = detector.call();
    const worst = detector.worst();
    console.log(
      `${detector.name.padEnd(17)}  ${String(Math.round(1000 / perCall)).padStart(7)}   ${(perCall / lower).toFixed(0).padStart(13)}   ${(perCall / normalized).toFixed(1).padStart(15)}   ${worst.toFixed(2).padStart(9)} ms`,
    );
  }

  // No pattern may backtrack badly: a long, repetitive message costs about as much per character as a short one.
  const long = `${'no you you did not did not still still the the wrong wrong '.repeat(1700)}?`;
  const perChar =
    timePerCall([long], (text) => detectCorrection(text, 'It should now work.'), 200) / long.length;
  const perCharShort =
    timePerCall(messages, (m) => detectCorrection(m.said, m.before)) /
    (messages.reduce((sum, m) => sum + m.said.length + m.before.length, 0) / messages.length);
  console.log(
    `\nA ${Math.round(long.length / 1000)} KB repetitive message: ${(perChar / perCharShort).toFixed(1)}× the time per character of the labelled messages.`,
  );
}

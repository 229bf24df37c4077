import { defaultParams, type LessonHash, seeded } from '../core/index.ts';
import {
  type CommonsState,
  computeStates,
  generateIdentity,
  type Identity,
  type Origin,
  type ParsedRecord,
  parseRecordLine,
  type Refusal,
  signRecord,
} from '../protocol/index.ts';
import { type GossipHolder, type Offer, offersFrom, takeOffer } from './gossip.ts';
import { createMemoryHolder } from './memory-holder.ts';

export interface SimulationOptions {
  agents: number;
  /** Peers each memory pulls from per round (3 unless told). */
  fanout?: number;
  seed?: number;
  /** Rounds a phase may take before it is called unfinished. */
  maxRounds?: number;
  /** Confirmations a lesson needs to be common (3 unless told). */
  N?: number;
}

export interface SimulationRow {
  agents: number;
  fanout: number;
  seed: number;
  /** Rounds until every memory holds the lesson, computes it common, computes it revoked; null if never. */
  rounds: { lesson: number | null; common: number | null; revoked: number | null };
  /** The aim: log2(N) + 3 rounds. */
  bound: number;
  /** Pulls made (memories × fanout × rounds) and those that carried something. */
  pulls: number;
  transfers: number;
  /** Records signed, each once by its own memory, and the keys made for them. */
  signatures: number;
  /** Lines checked with `parseRecordLine`: distinct lines verified, and checks answered from the cache. */
  verified: number;
  cached: number;
  ms: number;
}

export type GossipSimulation = SimulationRow;

const start = Date.parse('2026-01-01T00:00:00Z');
const dayMs = 86_400_000;
const dayOf = (round: number) => new Date(start + round * dayMs).toISOString();

/**
 * N memories in one process exchange by gossip with the real records: keys are Ed25519, every record is signed
 * by its own memory once, every line received goes through `parseRecordLine` (its result kept per distinct
 * line, so a line a thousand memories receive is verified once), and states come from `computeStates`.
 * Each round, every memory pulls from `fanout` peers chosen at random what is newer than what it holds, all
 * against the others' holdings at the start of the round. One simulated day passes per round.
 *
 * A lesson is published; once every memory holds it, three others confirm it; once every memory computes it
 * common, its publisher revokes it.
 */
export function simulateGossip(options: SimulationOptions): SimulationRow {
  const began = performance.now();
  const agents = options.agents;
  const fanout = options.fanout ?? defaultParams.gossip.fanout;
  const seed = options.seed ?? 1;
  const maxRounds = options.maxRounds ?? 200;
  const N = options.N ?? 3;
  if (agents < N + 2) throw new RangeError(`the simulation needs at least ${N + 2} memories`);
  const next = seeded(seed);
  const holders: GossipHolder[] = Array.from({ length: agents }, () => createMemoryHolder());

  const checks = new Map<string, ParsedRecord | Refusal>();
  let cached = 0;
  const parse = (line: string) => {
    const known = checks.get(line);
    if (known !== undefined) {
      cached++;
      return known;
    }
    const checked = parseRecordLine(line);
    checks.set(line, checked);
    return checked;
  };

  let round = 0;
  let signatures = 0;
  let pulls = 0;
  let transfers = 0;
  const sign = (memory: number, identity: Identity, fields: Parameters<typeof signRecord>[1]) => {
    const line = signRecord(identity, fields);
    signatures++;
    holders[memory]!.accept(identity.origin, [parse(line) as ParsedRecord]);
  };

  const stateAt = (memory: number, hash: LessonHash): CommonsState | undefined => {
    const holder = holders[memory]!;
    const records: ParsedRecord[] = [];
    for (const origin of holder.known().keys()) {
      for (const line of holder.lines(origin)) records.push(parse(line) as ParsedRecord);
    }
    return computeStates(records, { now: dayOf(round), N, W_days: 90 }).get(hash)?.state;
  };

  /** Rounds until `done` holds at every memory, or null. */
  const spread = (done: (memory: number) => boolean): number | null => {
    const reached = new Uint8Array(agents);
    let count = 0;
    for (let m = 0; m < agents; m++) {
      if (done(m)) {
        reached[m] = 1;
        count++;
      }
    }
    for (let rounds = 1; rounds <= maxRounds; rounds++) {
      round++;
      const now = dayOf(round);
      const planned: { memory: number; offer: Offer }[] = [];
      for (let m = 0; m < agents; m++) {
        const known = holders[m]!.known();
        for (let k = 0; k < fanout; k++) {
          let peer = Math.floor(next() * (agents - 1));
          if (peer >= m) peer++;
          pulls++;
          for (const offer of offersFrom(holders[peer]!, known)) planned.push({ memory: m, offer });
        }
      }
      const changed = new Set<number>();
      for (const { memory, offer } of planned) {
        transfers++;
        if (takeOffer(holders[memory]!, offer, { now, parse }).accepted > 0) changed.add(memory);
      }
      for (const m of changed) {
        if (reached[m] === 0 && done(m)) {
          reached[m] = 1;
          count++;
        }
      }
      if (count === agents) return rounds;
    }
    return null;
  };

  const publisher = generateIdentity();
  sign(0, publisher, {
    kind: 'error',
    text: 'The integration tests time out when the cache volume is mounted read-only.',
    seen: 2,
    strength: 1.5,
    updated: dayOf(round),
  });
  const lessonLine = holders[0]!.lines(publisher.origin)[0]!;
  const hash = (parse(lessonLine) as ParsedRecord & { kind: 'lesson' }).record.hash;
  const holds = (m: number) => holders[m]!.lines(publisher.origin as Origin).includes(lessonLine);
  const lesson = spread(holds);

  let common: number | null = null;
  let revoked: number | null = null;
  if (lesson !== null) {
    for (let c = 1; c <= N; c++) sign(c, generateIdentity(), { confirm: hash, updated: dayOf(round) });
    common = spread((m) => stateAt(m, hash) === 'common');
  }
  if (common !== null) {
    sign(0, publisher, { revoke: hash, updated: dayOf(round) });
    revoked = spread((m) => stateAt(m, hash) === 'revoked');
  }
  return {
    agents,
    fanout,
    seed,
    rounds: { lesson, common, revoked },
    bound: Math.log2(agents) + 3,
    pulls,
    transfers,
    signatures,
    verified: checks.size,
    cached,
    ms: performance.now() - began,
  };
}

const group = (n: number) => n.toLocaleString('en-US');
const roundsText = (rounds: number | null) => (rounds === null ? 'never' : String(rounds));

/** The simulation's rows as a table, and what was real in them. */
export function renderSimulation(rows: readonly SimulationRow[]): string {
  const header = ['memories', 'fanout', 'lesson', 'common', 'revoked', 'log2(N)+3', 'pulls', 'seconds'];
  const body = rows.map((row) => [
    group(row.agents),
    String(row.fanout),
    roundsText(row.rounds.lesson),
    roundsText(row.rounds.common),
    roundsText(row.rounds.revoked),
    row.bound.toFixed(1),
    group(row.pulls),
    (row.ms / 1000).toFixed(1),
  ]);
  const widths = header.map((title, i) => Math.max(title.length, ...body.map((cells) => cells[i]!.length)));
  const line = (cells: readonly string[]) =>
    cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  const signatures = rows.reduce((sum, row) => sum + row.signatures, 0);
  const verified = rows.reduce((sum, row) => sum + row.verified, 0);
  const cached = rows.reduce((sum, row) => sum + row.cached, 0);
  return [
    'Rounds until every memory holds the lesson, computes it common (3 confirmations), computes it revoked.',
    '',
    line(header),
    ...body.map(line),
    '',
    `Real Ed25519 keys and records: ${signatures} records signed, each once by its own memory.`,
    `Every line received was checked with parseRecordLine, the result cached per distinct line: ` +
      `${group(verified)} lines verified, ${group(cached)} checks answered from the cache.`,
    'Each round every memory pulls from fanout peers chosen at random; one simulated day per round.',
  ].join('\n');
}

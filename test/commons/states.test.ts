import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LessonHash } from '../../src/core/index.ts';
import type { Identity, ParsedRecord } from '../../src/protocol/index.ts';
import { computeStates, type LessonState } from '../../src/protocol/index.ts';
import {
  alice,
  bob,
  carol,
  confirm,
  dave,
  day,
  erin,
  frank,
  grace,
  hashOf,
  heidi,
  identities,
  lesson,
  parsed,
  revoke,
} from './helpers.ts';

const options = (now: number) => ({ now: day(now), N: 3, W_days: 90 });
const records = (lines: readonly string[]) => lines.map(parsed);
const stateOf = (lines: readonly string[], hash: string, now = 10): LessonState | undefined =>
  computeStates(records(lines), options(now)).get(hash as LessonHash);

const published = lesson(alice, 0, day(1));
const hash = hashOf(published);
const confirmations = (who: readonly Identity[], at = 2) =>
  who.map((identity) => confirm(identity, hash, day(at)));

describe('computeStates', () => {
  it('a lesson published by one memory is a candidate', () => {
    expect(stateOf([published], hash)).toMatchObject({
      state: 'candidate',
      confirmations: 0,
      publishers: [alice.origin],
      revokedBy: null,
      line: published,
    });
  });

  it('becomes common after three independent confirmations', () => {
    expect(stateOf([published, ...confirmations([bob, carol])], hash)?.state).toBe('candidate');
    const common = stateOf([published, ...confirmations([bob, carol, dave])], hash);
    expect(common).toMatchObject({ state: 'common', confirmations: 3, lastConfirmed: day(2) });
    expect(common?.confirmers).toEqual([bob.origin, carol.origin, dave.origin].sort());
  });

  it('does not count the publisher, a memory that published the same lesson, or the same confirmer twice', () => {
    const samePublished = lesson(bob, 0, day(1));
    expect(hashOf(samePublished)).toBe(hash);
    const lines = [
      published,
      samePublished,
      confirm(alice, hash, day(2)),
      confirm(bob, hash, day(2)),
      confirm(carol, hash, day(2)),
      confirm(carol, hash, day(3)),
      confirm(dave, hash, day(2)),
    ];
    expect(stateOf(lines, hash)).toMatchObject({
      state: 'candidate',
      confirmations: 2,
      publishers: [alice.origin, bob.origin].sort(),
    });
  });

  it('fades after 90 days without a confirmation, is removed after 180, and a new one brings it back', () => {
    const lines = [published, ...confirmations([bob, carol, dave], 2)];
    expect(stateOf(lines, hash, 92)?.state).toBe('common');
    expect(stateOf(lines, hash, 93)?.state).toBe('fading');
    expect(stateOf(lines, hash, 182)?.state).toBe('fading');
    expect(stateOf(lines, hash, 183)?.state).toBe('removed');
    const again = [...lines, confirm(erin, hash, day(150))];
    expect(stateOf(again, hash, 160)).toMatchObject({
      state: 'common',
      confirmations: 4,
      lastConfirmed: day(150),
    });
  });

  it('is revoked by its origin', () => {
    const lines = [published, ...confirmations([bob, carol, dave]), revoke(alice, hash, day(5))];
    expect(stateOf(lines, hash)).toMatchObject({
      state: 'revoked',
      revokedBy: 'origin',
      publishers: [alice.origin],
    });
  });

  it('is not revoked by someone else publishing the same lesson and revoking it', () => {
    const lines = [published, lesson(bob, 0, day(1)), revoke(bob, hash, day(5))];
    expect(stateOf(lines, hash)).toMatchObject({ state: 'candidate', publishers: [alice.origin] });
    expect(stateOf([...lines, revoke(alice, hash, day(6))], hash)?.state).toBe('revoked');
  });

  it('is revoked by a quorum: more than half of its confirmers, and at least three', () => {
    const five = confirmations([bob, carol, dave, erin, frank]);
    const revokedBy = (who: readonly Identity[]) => who.map((identity) => revoke(identity, hash, day(5)));
    expect(stateOf([published, ...five, ...revokedBy([bob, carol])], hash)?.state).toBe('common');
    expect(stateOf([published, ...five, ...revokedBy([bob, carol, grace, heidi])], hash)?.state).toBe(
      'common',
    );
    expect(stateOf([published, ...five, ...revokedBy([bob, carol, dave])], hash)).toMatchObject({
      state: 'revoked',
      revokedBy: 'quorum',
    });
    const three = confirmations([bob, carol, dave]);
    expect(stateOf([published, ...three, ...revokedBy([bob, carol])], hash)?.state).toBe('common');
  });

  it('counts nothing dated after now', () => {
    const lines = [published, ...confirmations([bob, carol]), confirm(dave, hash, day(20))];
    expect(stateOf(lines, hash, 10)?.state).toBe('candidate');
    expect(stateOf(lines, hash, 20)?.state).toBe('common');
    expect(stateOf([lesson(alice, 1, day(30))], hashOf(lesson(alice, 1, day(30))), 10)).toBeUndefined();
  });

  it('ignores confirmations and revocations of lessons it does not hold', () => {
    expect(
      computeStates(records([confirm(bob, hash, day(2)), revoke(carol, hash, day(3))]), options(10)).size,
    ).toBe(0);
  });
});

/** A pool of real signed records over two lessons, eight memories and a few days. */
const pool: ParsedRecord[] = (() => {
  const other = lesson(bob, 1, day(1));
  const lines: string[] = [published, other, lesson(carol, 0, day(3))];
  const hashes = [hash, hashOf(other)];
  identities.forEach((identity, n) => {
    for (const target of hashes) {
      lines.push(confirm(identity, target, day(2 + n)));
      lines.push(confirm(identity, target, day(40 + 15 * n)));
      if (n % 3 === 0) lines.push(revoke(identity, target, day(100 + n)));
    }
  });
  return records(lines);
})();

const canonical = (states: Map<LessonHash, LessonState>) => JSON.stringify([...states.entries()]);

describe('computeStates as a pure function of the set of records', () => {
  const subsetArb = fc.subarray(pool, { minLength: 1 });
  const nowArb = fc.integer({ min: 0, max: 400 });

  it('does not depend on the order records arrive in', () => {
    fc.assert(
      fc.property(subsetArb, nowArb, fc.nat(), (subset, now, seed) => {
        const shuffled = fc.sample(fc.shuffledSubarray(subset, { minLength: subset.length }), {
          seed,
          numRuns: 1,
        })[0]!;
        expect(canonical(computeStates(shuffled, options(now)))).toBe(
          canonical(computeStates(subset, options(now))),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('does not depend on duplicates', () => {
    fc.assert(
      fc.property(subsetArb, nowArb, fc.array(fc.nat()), (subset, now, picks) => {
        const extra = picks.map((pick) => subset[pick % subset.length]!);
        const withDuplicates = [...extra, ...subset, ...extra.reverse()];
        expect(canonical(computeStates(withDuplicates, options(now)))).toBe(
          canonical(computeStates(subset, options(now))),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('agrees with its own count of confirmations, and never counts a publisher', () => {
    fc.assert(
      fc.property(subsetArb, (subset) => {
        for (const [lessonHash, state] of computeStates(subset, options(400))) {
          expect(state.confirmations).toBeGreaterThanOrEqual(0);
          if (state.state === 'candidate') expect(state.confirmations).toBeLessThan(3);
          if (state.state === 'common' || state.state === 'fading' || state.state === 'removed') {
            expect(state.confirmations).toBeGreaterThanOrEqual(3);
          }
          for (const publisher of state.publishers) expect(state.confirmers).not.toContain(publisher);
          expect(state.hash).toBe(lessonHash);
        }
      }),
      { numRuns: 200 },
    );
  });
});

import { describe, expect, it } from 'vitest';
import { evidenceValidity, resolveTruth } from '../../src/truth/index.ts';
import { day, facts, relation } from './fixtures.ts';

describe('evidence validity', () => {
  it('a lesson learned here is current: its sources are its evidence', () => {
    expect(evidenceValidity(facts({ id: 1 }))).toBe('current');
  });

  it('stale: the last prediction failed and nothing confirmed it or was seen since', () => {
    expect(evidenceValidity(facts({ kind: 'error', failures: 1, lastFailedAt: day(15) }))).toBe('stale');
    expect(
      evidenceValidity(
        facts({
          kind: 'error',
          failures: 1,
          lastFailedAt: day(15),
          confirmations: 1,
          lastConfirmedAt: day(20),
        }),
      ),
    ).toBe('current');
    expect(
      evidenceValidity(facts({ kind: 'error', failures: 1, lastFailedAt: day(15), lastSeenAt: day(16) })),
    ).toBe('current');
    expect(
      evidenceValidity(
        facts({
          kind: 'error',
          failures: 2,
          lastFailedAt: day(30),
          confirmations: 1,
          lastConfirmedAt: day(3),
        }),
      ),
    ).toBe('stale');
  });

  it("a correction stays current when its prediction fails: the person's rule holds until they say otherwise", () => {
    expect(evidenceValidity(facts({ failures: 1, lastFailedAt: day(15) }))).toBe('current');
    expect(evidenceValidity(facts({ origin: 'a1b2c3d4e5f60718', failures: 1, lastFailedAt: day(15) }))).toBe(
      'expired',
    );
  });

  it('expired: a received candidate whose window passed with no confirmation ever', () => {
    expect(
      evidenceValidity(
        facts({ kind: 'error', origin: 'a1b2c3d4e5f60718', failures: 1, lastFailedAt: day(15) }),
      ),
    ).toBe('expired');
    expect(
      evidenceValidity(
        facts({
          kind: 'error',
          origin: 'a1b2c3d4e5f60718',
          failures: 1,
          lastFailedAt: day(30),
          confirmations: 1,
          lastConfirmedAt: day(10),
        }),
      ),
    ).toBe('stale');
  });

  it('unknown: received, never tested here and not approved; a person approving it or a confirmation is evidence', () => {
    expect(evidenceValidity(facts({ origin: 'a1b2c3d4e5f60718', review: 'pending_review' }))).toBe('unknown');
    expect(evidenceValidity(facts({ origin: 'a1b2c3d4e5f60718', review: 'approved' }))).toBe('current');
    expect(
      evidenceValidity(
        facts({
          origin: 'a1b2c3d4e5f60718',
          review: 'pending_review',
          confirmations: 1,
          lastConfirmedAt: day(3),
        }),
      ),
    ).toBe('current');
  });
});

describe('the resolution ladder', () => {
  it('only surviving lesson: a lesson alone, or the one left when the others no longer hold', () => {
    const alone = resolveTruth([facts({ id: 1 })], []);
    expect(alone.outcomes.get(1)).toMatchObject({ validity: 'current', resolution: 'only_surviving' });
    const withStale = resolveTruth(
      [facts({ id: 1 }), facts({ kind: 'error', id: 2, failures: 1, lastFailedAt: day(20) })],
      [relation('refutes', 1, 2)],
    );
    expect(withStale.outcomes.get(1)).toMatchObject({ validity: 'current', resolution: 'only_surviving' });
    expect(withStale.outcomes.get(2)).toMatchObject({ validity: 'stale', resolution: 'only_surviving' });
    expect(withStale.questions).toEqual([]);
  });

  it('explicit supersedes: the newer stands, the older is superseded by it', () => {
    const { outcomes } = resolveTruth(
      [facts({ id: 1 }), facts({ id: 2, at: day(5) })],
      [relation('supersedes', 2, 1)],
    );
    expect(outcomes.get(2)).toMatchObject({ validity: 'current', resolution: 'explicit_supersedes' });
    expect(outcomes.get(1)).toMatchObject({
      validity: 'superseded',
      supersededBy: 2,
      resolution: 'explicit_supersedes',
    });
    expect(outcomes.get(1)!.subject).toBe(outcomes.get(2)!.subject);
  });

  it('of two lessons that supersede each other, the later relation stands', () => {
    const { outcomes } = resolveTruth(
      [facts({ id: 1 }), facts({ id: 2 })],
      [relation('supersedes', 2, 1), relation('supersedes', 1, 2)],
    );
    expect(outcomes.get(1)!.validity).toBe('current');
    expect(outcomes.get(2)).toMatchObject({ validity: 'superseded', supersededBy: 1 });
  });

  it('a supersedes from a lesson that is not accepted (pending, vetoed) changes nothing', () => {
    const { outcomes } = resolveTruth(
      [facts({ id: 1 }), facts({ id: 2, origin: 'a1b2c3d4e5f60718', review: 'pending_review' })],
      [relation('supersedes', 2, 1)],
    );
    expect(outcomes.get(1)).toMatchObject({ validity: 'current', resolution: 'only_surviving' });
  });

  it('unresolved conflict: two surviving lessons that refute each other have no winner', () => {
    const { outcomes, questions } = resolveTruth(
      [facts({ id: 1, confirmations: 3 }), facts({ id: 2, at: day(9) })],
      [relation('refutes', 2, 1)],
    );
    for (const id of [1, 2]) {
      expect(outcomes.get(id)).toMatchObject({ validity: 'contradicted', resolution: 'unresolved_conflict' });
    }
    expect(outcomes.get(1)!.conflictsWith).toEqual([2]);
    expect(questions).toEqual([[1, 2]]);
  });

  it('verified evidence, then most recent, decide between survivors of one subject that do not refute each other', () => {
    // 1 refutes 2, 3 supersedes 2: 1 and 3 both stand on the subject, neither refutes the other.
    const relations = [relation('refutes', 1, 2), relation('supersedes', 3, 2)];
    const verified = resolveTruth(
      [facts({ id: 1, confirmations: 2 }), facts({ id: 2 }), facts({ id: 3, at: day(4), confirmations: 1 })],
      relations,
    );
    expect(verified.outcomes.get(1)).toMatchObject({ validity: 'current', resolution: 'verified_evidence' });
    expect(verified.outcomes.get(3)).toMatchObject({ validity: 'superseded', supersededBy: 1 });
    const recent = resolveTruth(
      [facts({ id: 1 }), facts({ id: 2 }), facts({ id: 3, at: day(4) })],
      relations,
    );
    expect(recent.outcomes.get(3)).toMatchObject({ validity: 'current', resolution: 'most_recent' });
    expect(recent.outcomes.get(1)).toMatchObject({ validity: 'superseded', supersededBy: 3 });
  });

  it('a merged lesson is superseded by its theme; a subject with nothing standing has no answer', () => {
    const { outcomes } = resolveTruth(
      [facts({ id: 1, mergedInto: 2 }), facts({ kind: 'error', id: 2, failures: 1, lastFailedAt: day(20) })],
      [relation('derived_from', 2, 1)],
    );
    expect(outcomes.get(1)).toMatchObject({ validity: 'superseded', supersededBy: 2, resolution: null });
    expect(outcomes.get(2)).toMatchObject({ validity: 'stale', resolution: null });
  });

  it('archived is not false: retention never changes validity', () => {
    const { outcomes } = resolveTruth([facts({ id: 1, archived: true })], []);
    expect(outcomes.get(1)).toMatchObject({ validity: 'current', resolution: 'only_surviving' });
  });
});

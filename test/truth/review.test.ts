import { describe, expect, it } from 'vitest';
import { defaultParams, type Params } from '../../src/core/index.ts';
import { auditOfLesson, getLesson, getTombstone, openStore, type Store } from '../../src/store/index.ts';
import { applyReviewPolicy, decideReview, listReviewQueue, visibleToAgent } from '../../src/truth/index.ts';
import { useTempDirs } from '../helpers/home.ts';
import { day, storePrediction, storeReceived } from './fixtures.ts';

const tempDir = useTempDirs();
const params = structuredClone(defaultParams) as Params;
const text = 'The agent found it had been wrong: "the lockfile is committed"';

function withReceived(): { store: Store; id: number } {
  const store = openStore(tempDir());
  return { store, id: storeReceived(store.db, { text }) };
}

const seen = (store: Store) =>
  visibleToAgent(store.db, { now: day(3), scope: { project: null } }).map((item) =>
    item.type === 'lesson' ? item.lesson.id : -1,
  );

describe('the review queue', () => {
  it('holds received lessons at the column default, with their origin, confirmations and predictions', () => {
    const { store, id } = withReceived();
    expect(getLesson(store.db, id)?.review).toBe('pending_review');
    storePrediction(store.db, id, day(0), { state: 'confirmed', at: day(2) });
    storePrediction(store.db, id, day(2));
    expect(listReviewQueue(store.db, { now: day(3) })).toMatchObject([
      {
        lesson: { id },
        origin: 'a1b2c3d4e5f60718',
        confirmations: 1,
        failures: 0,
        predicting: 1,
        validity: 'current',
      },
    ]);
    expect(seen(store)).toEqual([]);
    store.close();
  });

  it('approving needs an interactive terminal', () => {
    const { store, id } = withReceived();
    expect(() =>
      decideReview(store, { action: 'approve', ref: String(id), now: day(1), terminal: false, params }),
    ).toThrow(/interactive terminal/);
    expect(getLesson(store.db, id)?.review).toBe('pending_review');
    store.close();
  });

  it('approve: the lesson reaches agents, and the person is audited as the actor', () => {
    const { store, id } = withReceived();
    decideReview(store, { action: 'approve', ref: String(id), now: day(1), terminal: true, params });
    expect(seen(store)).toEqual([id]);
    expect(auditOfLesson(store.db, id)).toMatchObject([{ action: 'approve', actor: 'person' }]);
    expect(listReviewQueue(store.db, { now: day(3) })).toEqual([]);
    expect(() =>
      decideReview(store, { action: 'reject', ref: String(id), now: day(2), terminal: true, params }),
    ).toThrow(/not waiting for review/);
    store.close();
  });

  it('reject: never reaches an agent, and its hash is a tombstone', () => {
    const { store, id } = withReceived();
    const lesson = decideReview(store, {
      action: 'reject',
      ref: String(id),
      now: day(1),
      terminal: true,
      params,
    });
    expect(lesson.review).toBe('rejected');
    expect(getTombstone(store.db, lesson.hash)?.reason).toBe('rejected in review');
    expect(seen(store)).toEqual([]);
    expect(auditOfLesson(store.db, id)).toMatchObject([{ action: 'reject', actor: 'person' }]);
    store.close();
  });

  it('edit: the person words it, as an observation, and it is approved', () => {
    const { store, id } = withReceived();
    expect(() =>
      decideReview(store, {
        action: 'edit',
        ref: String(id),
        now: day(1),
        terminal: true,
        params,
        text: 'Always commit the lockfile.',
      }),
    ).toThrow(/instruction/);
    const edited = decideReview(store, {
      action: 'edit',
      ref: String(id),
      now: day(1),
      terminal: true,
      params,
      text: 'The lockfile is committed in this repository.',
    });
    expect(edited).toMatchObject({
      review: 'approved',
      text: 'The lockfile is committed in this repository.',
    });
    expect(auditOfLesson(store.db, id)[0]?.reason).toMatch(/^edited, then approved; was [0-9a-f]{32}/);
    store.close();
  });

  it('the policy approves what the commons holds as common only when it is turned on', () => {
    const { store, id } = withReceived();
    const isCommon = () => true;
    expect(applyReviewPolicy(store.db, { now: day(1), params, isCommon })).toEqual([]);
    expect(getLesson(store.db, id)?.review).toBe('pending_review');
    const on = { ...params, truth: { ...params.truth, autoApproveCommon: true } };
    expect(applyReviewPolicy(store.db, { now: day(1), params: on, isCommon: () => false })).toEqual([]);
    expect(
      applyReviewPolicy(store.db, { now: day(1), params: on, isCommon }).map((lesson) => lesson.id),
    ).toEqual([id]);
    expect(auditOfLesson(store.db, id)).toMatchObject([{ action: 'approve', actor: 'receive' }]);
    store.close();
  });
});

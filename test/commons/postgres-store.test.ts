import { afterAll, describe, expect, it } from 'vitest';
import { createCommonsApp, issueToken, openCommonsStore } from '../../src/commons/index.ts';
import { alice, day, dropSchemas, fileOf, findPostgres, lesson, uniqueSchema } from './helpers.ts';
import { describeCommonsStore } from './store-conformance.ts';

const base = await findPostgres();
const schemas: string[] = [];
const urlFor = (schema: string) => `${base}?schema=${schema}`;

if (base === null) {
  const message =
    'PostgreSQL is unreachable on 127.0.0.1:5432 (database test, user postgres or the current user)';
  if (process.env['CI']) {
    describe('PostgreSQL commons store', () => {
      it('needs PostgreSQL in CI', () => {
        expect.fail(`${message}: CI must run the PostgreSQL tests`);
      });
    });
  } else {
    console.warn(`skipping the PostgreSQL tests: ${message}`);
    describe.skip(`PostgreSQL commons store (skipped: ${message})`, () => {
      it('needs PostgreSQL', () => undefined);
    });
  }
} else {
  afterAll(() => dropSchemas(base, schemas));

  describeCommonsStore('PostgreSQL', {
    async fresh() {
      const schema = uniqueSchema();
      schemas.push(schema);
      return { store: await openCommonsStore(urlFor(schema)), again: () => openCommonsStore(urlFor(schema)) };
    },
  });

  describe('two commons servers over one PostgreSQL database', () => {
    it('see each other’s writes and share the replay check', async () => {
      const schema = uniqueSchema();
      schemas.push(schema);
      const [storeA, storeB] = [
        await openCommonsStore(urlFor(schema)),
        await openCommonsStore(urlFor(schema)),
      ];
      try {
        const now = () => day(10);
        const first = createCommonsApp({ store: storeA, now });
        const second = createCommonsApp({ store: storeB, now });
        const { token } = await issueToken(storeA, { origin: alice.origin, now: day(0) });
        const put = (app: typeof first, body: string) =>
          app.request(`/commons/${alice.origin}.jsonl`, {
            method: 'PUT',
            headers: { authorization: `Bearer ${token}` },
            body,
          });
        const body = fileOf([lesson(alice, 0, day(2))]);
        expect((await put(first, body)).status).toBe(200);
        const read = await second.request(`/commons/${alice.origin}.jsonl`);
        expect(await read.text()).toBe(body);
        const index = (await (await second.request('/commons/index')).json()) as { entries: unknown[] };
        expect(index.entries).toEqual([{ origin: alice.origin, updated: day(2), records: 1 }]);
        expect((await put(second, fileOf([lesson(alice, 0, day(1))]))).status).toBe(409);
      } finally {
        await storeA.close();
        await storeB.close();
      }
    });
  });
}

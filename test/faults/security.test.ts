import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../helpers/home.ts';
import { commonsGuards, httpGuards, injectionChecks, type SecurityCheck, secretChecks } from './security.ts';

const tempDir = useTempDirs();

function expectAll(checks: readonly SecurityCheck[]): void {
  expect(checks.length).toBeGreaterThan(0);
  for (const check of checks) expect(check.ok, `${check.name}: ${check.detail}`).toBe(true);
}

describe('what must never get through', () => {
  it('the REST API and the web view refuse requests without the token, from other origins and hosts, and oversized', async () => {
    expectAll(await httpGuards(tempDir()));
  });

  it('the commons refuses writes without the token, from web pages, by other host names, and oversized', async () => {
    expectAll(await commonsGuards());
  });

  it('an order inside a transcript reaches an agent only quoted, inside an observation', async () => {
    expectAll(await injectionChecks(tempDir()));
  }, 60_000);

  it('secrets in sessions are masked in lessons and never leave in a shared record', async () => {
    expectAll(await secretChecks(join(tempDir(), 'secrets')));
  }, 60_000);
});

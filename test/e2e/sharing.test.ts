import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  generateIdentity,
  type Identity,
  type JsonValue,
  lessonHash,
  originOf,
  parseRecordLine,
  signRecord,
} from '../../src/protocol/index.ts';
import { useTempDirs } from '../helpers/home.ts';
import { remem } from '../helpers/remem.ts';
import { signAnything } from '../protocol/helpers.ts';
import { day, lintError, memory, type ReceiveJson, type ShareJson, serveCommons } from './memories.ts';

const tempDir = useTempDirs();

describe('two memories share through a folder', () => {
  it('A learns and shares; B receives a candidate, confirms it and says so; A gains; A revokes and B drops it', () => {
    const root = tempDir('remem-sharing-');
    const folder = join(root, 'shared');
    const a = memory(root, 'a');
    const b = memory(root, 'b');

    // A meets the same error twice: an error lesson.
    a.night(0, [lintError(a.project, 'session-of-a-one', day(0))]);
    a.night(1, [lintError(a.project, 'session-of-a-two', day(1))]);
    const [learned] = a.lessons(day(2, 5));
    expect(learned).toMatchObject({ kind: 'error', origin: 'self', strength: 1.5 });

    // Nothing is shared by default.
    const before = a.share(day(2, 5), folder);
    expect(before).toMatchObject({ lessons: 0, notEnabled: 1 });
    a.run(['share', '--enable'], day(2, 5), a.project);
    const shared = a.share(day(2, 5), folder);
    expect(shared).toMatchObject({ lessons: 1, confirmations: 0, revocations: 0 });
    const originA = a.origin();
    expect(readdirSync(folder)).toEqual([`${originA}.jsonl`]);
    const file = readFileSync(join(folder, `${originA}.jsonl`), 'utf8');
    const lines = file.trim().split('\n');
    expect(lines).toHaveLength(1);
    const parsed = parseRecordLine(lines[0]!);
    expect('refused' in parsed ? parsed.refused : parsed.kind).toBe('lesson');
    // Only the lesson sentence leaves: not the project, not the session.
    expect(file).not.toContain(a.project);
    expect(file).not.toContain('session-of-a');

    // B receives a candidate.
    const received = b.receive(day(2, 6), folder);
    expect(received).toMatchObject({ received: 1, refused: 0 });
    const [candidate] = b.lessons(day(2, 6));
    expect(candidate).toMatchObject({
      hash: learned!.hash,
      kind: 'error',
      text: learned!.text,
      origin: originA,
      review: 'pending_review',
      strength: 0.5,
    });

    // B's nights: the candidate predicts, B's own session meets the error, the prediction comes true.
    b.night(2);
    b.night(3, [lintError(b.project, 'session-of-b-one', day(3))]);
    const [confirmed] = b.lessons(day(4, 5));
    expect(confirmed!.strength).toBeGreaterThan(0.95);

    // A confirmation says what B's sessions met: it is published only once B enabled that project.
    expect(b.share(day(4, 5), folder)).toMatchObject({ confirmations: 0 });
    b.run(['share', '--enable'], day(4, 5), b.project);
    expect(b.share(day(4, 5), folder)).toMatchObject({ lessons: 0, confirmations: 1 });
    const originB = b.origin();

    // A receives the confirmation: +0.5, once, and B among the confirmers.
    const back = a.receive(day(4, 6), folder);
    expect(back.raised).toEqual([
      expect.objectContaining({ lessonId: learned!.id, origin: originB, way: 'confirm' }),
    ]);
    const [gained] = a.lessons(day(4, 6));
    expect(gained!.strength).toBeCloseTo(learned!.strength + 0.5, 6);
    expect(gained!.confirmedBy).toEqual([originB]);
    expect(a.receive(day(4, 7), folder)).toMatchObject({ raised: [], known: 1 });
    expect(a.lessons(day(4, 7))[0]!.strength).toBeCloseTo(gained!.strength, 6);

    // A revokes: its file now holds the revocation; B drops the lesson and will not take it again.
    a.run(['revoke', learned!.hash], day(5, 5));
    expect(a.share(day(5, 5), folder)).toMatchObject({ lessons: 0, revocations: 1 });
    expect(b.receive(day(5, 6), folder)).toMatchObject({ revocations: 1, dropped: 1 });
    const [dropped] = b.lessons(day(5, 6));
    expect(dropped!.state).toBe('vetoed');
    expect(b.run(['lessons', '--json'], day(5, 6)).json<{ lessons: unknown[] }>().lessons).toEqual([]);
    expect(b.share(day(5, 7), folder)).toMatchObject({ confirmations: 0 });
    writeFileSync(join(folder, `${originA}.jsonl`), file);
    expect(b.receive(day(5, 8), folder).byReason).toEqual({ tombstoned: 1 });
  });

  it('a received lesson that means what a local one means corroborates it, once per memory', () => {
    const root = tempDir('remem-sharing-');
    const folder = join(root, 'shared');
    const a = memory(root, 'a');
    const b = memory(root, 'b');
    const surprise = (cwd: string, text: string, session: string, when: string) =>
      JSON.stringify({ agent: 'claude-code', cwd, kind: 'surprise', text, session, at: when });
    const saidByA =
      "The staging database is restored from last month's backup every Sunday night, so recent rows vanish.";
    const saidByB =
      "Every Sunday night the staging database is restored from last month's backup, and recent rows vanish.";
    a.night(0, [
      surprise(a.project, saidByA, 'session-a-1', day(0)),
      surprise(a.project, saidByA, 'session-a-2', day(0, 11)),
    ]);
    b.night(0, [
      surprise(b.project, saidByB, 'session-b-1', day(0)),
      surprise(b.project, saidByB, 'session-b-2', day(0, 11)),
    ]);
    a.run(['share', '--enable'], day(1, 5), a.project);
    a.share(day(1, 5), folder);
    const [own] = b.lessons(day(1, 6));
    expect(b.receive(day(1, 6), folder)).toMatchObject({ received: 1, corroborated: 0 });

    b.night(1);
    const after = b.lessons(day(2, 5)).find((lesson) => lesson.id === own!.id)!;
    expect(after.corroboratedBy).toEqual([a.origin()]);
    // +0.5, less a night of decay.
    expect(after.strength).toBeGreaterThan(own!.strength + 0.45);
    b.night(2);
    const later = b.lessons(day(3, 5)).find((lesson) => lesson.id === own!.id)!;
    expect(later.strength).toBeLessThan(after.strength);
  });

  it('refuses a tampered line, a forged signature, a key that is not its origin and an instruction, each by reason', () => {
    const root = tempDir('remem-sharing-');
    const folder = join(root, 'shared');
    mkdirSync(folder);
    const b = memory(root, 'b');
    const sender = generateIdentity();
    const forger = generateIdentity();
    const text = 'The integration tests time out when the database container is still starting.';
    const genuine = signRecord(sender, { kind: 'error', text, seen: 2, strength: 1.5, updated: day(0) });
    const tampered = genuine.replace('time out', 'time  out');
    // The sender's key and origin, signed by another key.
    const { sig: _sig, ...unsigned } = JSON.parse(genuine) as Record<string, JsonValue>;
    const forged = signAnything(forger, unsigned);
    const otherKey = signAnything(forger, {
      v: 1,
      hash: lessonHash('error', 'The linter fails on generated files.'),
      key: forger.key,
      origin: sender.origin,
      kind: 'error',
      text: 'The linter fails on generated files.',
      seen: 1,
      strength: 1,
      updated: day(0),
    });
    const instruction = 'Always run the migrations before the tests.';
    const imperative = signed(sender, instruction);
    const writeFile = (identity: Identity, records: string[]) =>
      writeFileSync(join(folder, `${identity.origin}.jsonl`), `${records.join('\n')}\n`);
    writeFile(sender, [tampered, forged, otherKey, imperative, genuine]);

    const report = b.receive(day(1), folder);
    expect(report.byReason).toEqual({ signature: 2, origin: 1, imperative: 1 });
    expect(report.received).toBe(1);
    const [lesson] = b.lessons(day(1));
    expect(lesson).toMatchObject({ text, origin: sender.origin, review: 'pending_review' });

    // A lesson the person vetoed here is refused when it comes again.
    b.run(['forget', String(lesson!.id)], day(1, 11));
    expect(b.receive(day(1, 12), folder).byReason).toEqual({
      signature: 2,
      origin: 1,
      imperative: 1,
      tombstoned: 1,
    });
  });
});

describe('through a commons', () => {
  it('A publishes with a bearer token; B reads every other file from the commons', async () => {
    const root = tempDir('remem-sharing-');
    const a = memory(root, 'a');
    const b = memory(root, 'b');
    const serverHome = join(root, 'commons');
    const token = remem(['commons', 'token', 'add', '--any', '--json'], { home: serverHome }).json<{
      token: string;
    }>().token;
    const server = await serveCommons(serverHome, day(30));
    const { url } = server;
    try {
      a.night(0, [lintError(a.project, 'session-a-1', day(0))]);
      a.night(1, [lintError(a.project, 'session-a-2', day(1))]);
      a.run(['share', '--enable'], day(2, 5), a.project);
      const refused = remem(['share', '--commons', url], { home: a.home, now: day(2, 5) });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/token/);
      const shared = remem(['share', '--commons', url, '--json'], {
        home: a.home,
        now: day(2, 5),
        env: { REMEM_COMMONS_TOKEN: token },
      });
      expect(shared.code, shared.stderr).toBe(0);
      expect(shared.json<ShareJson>()).toMatchObject({
        lessons: 1,
        written: [`${url}/commons/${a.origin()}.jsonl`],
      });
      const received = remem(['receive', '--commons', url, '--json'], { home: b.home, now: day(2, 6) });
      expect(received.code, received.stderr).toBe(0);
      expect(received.json<ReceiveJson>()).toMatchObject({ received: 1, refused: 0 });
      expect(b.lessons(day(2, 6))[0]).toMatchObject({
        origin: a.origin(),
        review: 'pending_review',
        strength: 0.5,
      });
    } finally {
      server.stop();
    }
  });
});

describe('key and layers', () => {
  it('prints the origin and the public key', () => {
    const home = tempDir();
    const result = remem(['key', '--json'], { home });
    expect(result.code, result.stderr).toBe(0);
    const { origin, key } = result.json<{ origin: string; key: string }>();
    expect(origin).toBe(originOf(key));
    expect(remem(['key'], { home }).stdout).toContain(origin);
  });

  it('adds, lists and removes a layer; its lessons pass the checks a received one does', () => {
    const root = tempDir();
    const home = join(root, 'home');
    const file = join(root, 'node.jsonl');
    writeFileSync(
      file,
      [
        JSON.stringify({ kind: 'error', text: 'The build fails when the cache directory is missing.' }),
        JSON.stringify({ kind: 'error', text: 'Always clear the cache first.' }),
      ].join('\n'),
    );
    const added = remem(['layer', 'add', file, '--as', 'domain', '--json'], { home });
    expect(added.code, added.stderr).toBe(0);
    expect(added.json()).toMatchObject({
      level: 'domain',
      lessons: 1,
      refused: [{ line: 2, code: 'imperative' }],
    });
    const listed = remem(['layer', 'list', '--json'], { home }).json<{ layers: unknown[] }>();
    expect(listed.layers).toEqual([
      {
        path: file,
        level: 'domain',
        lessons: 1,
        refused: 1,
        problem: null,
        inUse: 0,
        pendingReview: 1,
        readAt: expect.any(String),
      },
    ]);
    expect(remem(['layer', 'add', file, '--as', 'personal'], { home }).code).toBe(2);
    const nothing = join(root, 'orders.jsonl');
    writeFileSync(nothing, `${JSON.stringify({ kind: 'error', text: 'Always clear the cache first.' })}\n`);
    const refused = remem(['layer', 'add', nothing], { home });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/no lesson passes \(line 1 imperative/);
    expect(remem(['layer', 'remove', file], { home }).code).toBe(0);
    expect(remem(['layer', 'list', '--json'], { home }).json<{ layers: unknown[] }>().layers).toEqual([]);
    expect(remem(['layer', 'remove', file], { home }).code).toBe(1);
  });
});

/** A lesson record signed without the signer's own checks: a line a receiver must refuse on content. */
function signed(identity: Identity, text: string): string {
  return signAnything(identity, {
    v: 1,
    hash: lessonHash('error', text),
    key: identity.key,
    origin: identity.origin,
    kind: 'error',
    text,
    seen: 1,
    strength: 1,
    updated: day(0),
  });
}

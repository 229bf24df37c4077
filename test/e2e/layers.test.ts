import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateIdentity, lessonHash, signRecord } from '../../src/protocol/index.ts';
import { useTempDirs } from '../helpers/home.ts';
import { remem } from '../helpers/remem.ts';

const tempDir = useTempDirs();

function day(n: number, hour = 10): string {
  return new Date(Date.UTC(2026, 10, 1 + n, hour)).toISOString();
}

const NOW = day(3, 9);
const STAGING = 'The staging database rejects migrations during business hours.';
const BUNDLER = 'The TypeScript compiler here needs the bundler module resolution.';
const FLAKY = 'The payment sandbox times out on the first request after a deploy.';

interface LessonRow {
  id: number | null;
  hash: string;
  kind: string;
  text: string;
  strength: number;
  origin: string | null;
  layer: 'common' | 'domain' | 'personal';
  source: string;
  reach: string;
  heldBecause: string | null;
}

function line(kind: string, text: string, strength: number): string {
  return JSON.stringify({ kind, text, strength, seen: 2, updated: day(0) });
}

/**
 * A memory that learned one error lesson of its own (the same failing call on two days), a common layer and a
 * domain layer: the common layer holds the memory's own lesson more weakly and the staging lesson; the domain
 * layer holds the staging lesson more strongly, the bundler lesson, and a signed record.
 */
function composedHome() {
  const root = tempDir('remem-layers-');
  const home = join(root, 'home');
  const project = join(root, 'project');
  mkdirSync(project, { recursive: true });
  const run = (
    args: string[],
    now = NOW,
    extra: { cwd?: string; input?: string; env?: Record<string, string> } = {},
  ) => {
    const result = remem(args, { home, now, ...extra });
    expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
    return result;
  };
  for (const n of [0, 1]) {
    const events = join(root, `events-${n}.jsonl`);
    writeFileSync(
      events,
      `${JSON.stringify({
        agent: 'claude-code',
        cwd: project,
        kind: 'error',
        title: 'Bash: npm run lint',
        happened: 'npm ERR! Missing script: "lint"',
        session: `session-${n}`,
        at: day(n),
      })}\n`,
    );
    run(['ingest', '--events', events], day(n, 23));
    run(['sleep'], day(n + 1, 4));
  }
  const lessons = (args: string[] = []) =>
    run(['lessons', '--json', ...args]).json<{ lessons: LessonRow[] }>().lessons;
  const [own] = lessons();
  expect(own).toMatchObject({ kind: 'error', layer: 'personal', strength: 1.5 });

  const signer = generateIdentity();
  const signed = signRecord(signer, {
    kind: 'surprise',
    text: FLAKY,
    seen: 3,
    strength: 1.2,
    updated: day(0),
  });
  const common = join(root, 'common.jsonl');
  const domain = join(root, 'domain.jsonl');
  writeFileSync(common, [line('error', own!.text, 0.5), line('error', STAGING, 1)].join('\n'));
  writeFileSync(domain, [line('error', STAGING, 3), line('surprise', BUNDLER, 2), signed].join('\n'));
  expect(run(['layer', 'add', common, '--as', 'common', '--json']).json()).toMatchObject({ lessons: 2 });
  expect(run(['layer', 'add', domain, '--as', 'domain', '--json']).json()).toMatchObject({ lessons: 3 });
  // What a layer adds waits for the person's review.
  expect(run(['layer', 'approve', common, '--json']).json()).toMatchObject({ approved: 2 });
  expect(run(['layer', 'approve', domain, '--json']).json()).toMatchObject({ approved: 3 });
  const prompt = () => run(['render', '--format', 'prompt', '--json']).json<{ text: string }>().text;
  const prime = (text: string, session: string) =>
    run(['prime'], NOW, {
      input: JSON.stringify({
        session_id: session,
        transcript_path: '/dev/null',
        cwd: project,
        hook_event_name: 'UserPromptSubmit',
        prompt: text,
      }),
      env: { REMEM_HOLDOUT: '0' },
    }).stdout;
  return { root, home, project, own: own!, common, domain, signer, run, lessons, prompt, prime };
}

function count(text: string, part: string): number {
  return text.split(part).length - 1;
}

describe('the layers an agent runs with, composed on every path it reads', () => {
  it('render, prime, the memory folder and lessons show the union, one strongest instance per hash', () => {
    const memory = composedHome();
    const { own } = memory;

    const prompt = memory.prompt();
    for (const text of [own.text, STAGING, BUNDLER, FLAKY]) expect(count(prompt, text), text).toBe(1);

    const rows = memory.lessons();
    expect(new Set(rows.map((row) => row.hash)).size).toBe(rows.length);
    const byText = new Map(rows.map((row) => [row.text, row]));
    // The memory's own is stronger than the common layer's copy; the domain's staging lesson outweighs the common one.
    expect(byText.get(own.text)).toMatchObject({ layer: 'personal', strength: 1.5, id: own.id });
    expect(byText.get(STAGING)).toMatchObject({
      layer: 'domain',
      strength: 3,
      id: null,
      source: memory.domain,
    });
    expect(byText.get(BUNDLER)).toMatchObject({ layer: 'domain', origin: null, reach: 'lesson' });
    expect(byText.get(FLAKY)).toMatchObject({ layer: 'domain', origin: memory.signer.origin });
    expect(rows.map((row) => row.strength)).toEqual([3, 2, 1.5, 1.2]);
    // The owner's full view says which instances agents do not see, and why.
    const all = memory.lessons(['--all']).filter((row) => row.hash === lessonHash('error', STAGING));
    expect(all.map((row) => [row.layer, row.reach, row.heldBecause])).toEqual([
      ['domain', 'lesson', null],
      ['common', 'held', 'stronger_instance'],
    ]);

    const shown = memory.prime('Run the migrations on the staging database now', 'session-live');
    const context = JSON.parse(shown).hookSpecificOutput.additionalContext as string;
    expect(context).toContain(STAGING);

    const folder = join(memory.root, 'memory-folder');
    memory.run(['render', '--dir', folder]);
    const index = readFileSync(join(folder, 'MEMORY.md'), 'utf8');
    for (const text of [own.text, STAGING, BUNDLER, FLAKY]) expect(count(index, text), text).toBe(1);
    const files = readdirSync(folder).filter((name) => name.startsWith('remem-'));
    expect(files).toHaveLength(4);
    expect(files).toContain(`remem-${lessonHash('error', STAGING).slice(0, 12)}.md`);
  });

  it('removing a layer removes its lessons from what agents see, the prime index included', () => {
    const memory = composedHome();
    memory.run(['layer', 'remove', memory.domain]);
    const prompt = memory.prompt();
    expect(prompt).not.toContain(BUNDLER);
    expect(prompt).not.toContain(FLAKY);
    // The common layer's weaker staging lesson is what stands now.
    expect(memory.lessons().find((row) => row.text === STAGING)).toMatchObject({
      layer: 'common',
      strength: 1,
    });
    expect(memory.prime('Which TypeScript module resolution does the compiler need here?', 'session-a')).toBe(
      '',
    );
    memory.run(['layer', 'remove', memory.common]);
    expect(memory.lessons().map((row) => row.layer)).toEqual(['personal']);
    expect(memory.prompt()).not.toContain(STAGING);
  });

  it('a tombstoned or revoked hash in a layer is not shown, and stays out when the file is read again', () => {
    const memory = composedHome();
    const bundler = lessonHash('surprise', BUNDLER);
    const vetoed = memory
      .run(['forget', bundler.slice(0, 10), '--json'])
      .json<{ vetoed: { hash: string }[] }>();
    expect(vetoed.vetoed.map((lesson) => lesson.hash)).toEqual([bundler]);
    expect(memory.prompt()).not.toContain(BUNDLER);
    expect(memory.lessons(['--all']).map((row) => row.hash)).not.toContain(bundler);
    expect(memory.prime('Which TypeScript module resolution does the compiler need here?', 'session-b')).toBe(
      '',
    );
    const again = memory.run(['layer', 'add', memory.domain, '--as', 'domain', '--json']).json<{
      lessons: number;
      refused: { code: string }[];
    }>();
    expect(again.lessons).toBe(2);
    expect(again.refused.map((refusal) => refusal.code)).toEqual(['tombstoned']);

    // The signed lesson's origin revokes it: received, the revocation holds for the layer's copy too.
    const folder = join(memory.root, 'shared');
    mkdirSync(folder);
    const revocation = signRecord(memory.signer, { revoke: lessonHash('surprise', FLAKY), updated: day(2) });
    writeFileSync(join(folder, `${memory.signer.origin}.jsonl`), `${revocation}\n`);
    expect(memory.run(['receive', '--folder', folder, '--json']).json()).toMatchObject({ revocations: 1 });
    expect(memory.prompt()).not.toContain(FLAKY);
    expect(memory.prompt()).toContain(STAGING);
  });

  it('a memory folder file of a layer lesson the owner deletes is a veto', () => {
    const memory = composedHome();
    const folder = join(memory.root, 'memory-folder');
    memory.run(['render', '--dir', folder]);
    const file = join(folder, `remem-${lessonHash('error', STAGING).slice(0, 12)}.md`);
    expect(existsSync(file)).toBe(true);
    rmSync(file);
    memory.run(['render', '--dir', folder]);
    expect(existsSync(file)).toBe(false);
    expect(memory.prompt()).not.toContain(STAGING);
  });

  it('remem share never publishes a layer lesson', () => {
    const memory = composedHome();
    memory.run(['share', '--enable'], NOW, { cwd: memory.project });
    const folder = join(memory.root, 'published');
    const shared = memory.run(['share', '--folder', folder, '--json']).json<{ lessons: number }>();
    expect(shared.lessons).toBe(1);
    const [name] = readdirSync(folder);
    const published = readFileSync(join(folder, name!), 'utf8');
    expect(published).toContain(lessonHash('error', memory.own.text));
    for (const text of [STAGING, BUNDLER, FLAKY]) expect(published).not.toContain(text);
    // Nor does the wire-format file this memory writes of its own lessons.
    const own = readFileSync(join(memory.home, 'lessons.jsonl'), 'utf8');
    for (const text of [STAGING, BUNDLER, FLAKY]) expect(own).not.toContain(text);
  });
});

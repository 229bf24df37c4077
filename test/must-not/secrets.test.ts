import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../helpers/home.ts';
import { remem } from '../helpers/remem.ts';
import { seenByEveryPath } from './agent-paths.ts';

const tempDir = useTempDirs();
const project = '/tmp/remem-must-not-secrets';
const awsSecret = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY';
const hexToken = '9c4e1f7a2b8d3e6f0a5c9b1d7e3f8a2c6b0d4e9f1a7c3b5d8e2f6a0c4b9d1e7f';
const hidden = ['\u2062', '\ufff9', '\ufffb', '\u200b', '\u00ad', '\u3164'];

function event(day: number, said: string): string {
  const at = new Date(Date.UTC(2026, 2, day, 10)).toISOString();
  return JSON.stringify({
    kind: 'correction',
    said,
    agent_did: 'I pushed the deploy script with the old credentials.',
    agent: 'claude-code',
    session: `s-${day}`,
    cwd: project,
    at,
  });
}

describe('MUST NOT: a secret or an invisible character reaches an agent or leaves the machine', () => {
  it('an AWS secret with slashes and a hex token after a key-like word are masked everywhere they could show', async () => {
    const home = tempDir();
    const events = join(home, 'events.jsonl');
    writeFileSync(
      events,
      `${[
        event(
          1,
          `no, the deploy stage reads the AWS secret ${awsSecret} from the vault, not from deploy.env`,
        ),
        event(2, `no, the deploy token is ${hexToken} and it lives in the vault, not in deploy.env`),
        event(3, `no, the deploy stage reads the ocelot${hidden.join('')} vault, not deploy.env`),
      ].join('\n')}\n`,
    );
    const now = '2026-03-04T10:00:00.000Z';
    for (const args of [
      ['ingest', '--events', events],
      ['sleep'],
      ['render', '--dir', join(home, 'folder')],
    ]) {
      const run = remem(args, { home, now });
      expect(run.code, `remem ${args.join(' ')}: ${run.stderr}`).toBe(0);
    }
    const lessons = remem(['lessons', '--all', '--json'], { home, now });
    const texts = (JSON.parse(lessons.stdout) as { lessons: { text: string }[] }).lessons.map((l) => l.text);
    // One lesson or several (the three are about one thing and may merge): each correction is quoted, so each
    // secret had a place to show.
    for (const words of ['reads the AWS secret', 'the deploy token is', 'ocelot'])
      expect(texts.join('\n')).toContain(words);
    expect(texts.some((text) => text.includes('[secret]'))).toBe(true);

    const shown = await seenByEveryPath({ home, project, query: 'deploy vault secret token ocelot', now });
    const written = ['lessons.jsonl', 'morning.md', 'prime-index.bin']
      .map((name) => readFileSync(join(home, name), 'utf8'))
      .concat(
        readdirSync(join(home, 'folder')).map((name) => readFileSync(join(home, 'folder', name), 'utf8')),
      );
    expect(remem(['share', '--enable', '--project', project], { home, now }).code).toBe(0);
    const shared = remem(['share', '--folder', join(home, 'shared'), '--corrections'], { home, now });
    expect(shared.code, shared.stderr).toBe(0);
    const records = readdirSync(join(home, 'shared')).map((name) =>
      readFileSync(join(home, 'shared', name), 'utf8'),
    );

    const everything = [
      ...texts,
      ...shown.flatMap(({ seen }) => seen.map((item) => item.text)),
      ...written,
      ...records,
    ].join('\n');
    expect(everything).not.toContain(awsSecret);
    expect(everything).not.toContain('K7MDENG');
    expect(everything).not.toContain(hexToken);
    for (const char of hidden)
      expect(everything.includes(char), `U+${char.codePointAt(0)!.toString(16)}`).toBe(false);
  });
});

import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendToArchive, archivePathFor, readArchive } from '../../src/stream/index.ts';
import { useTempDirs } from '../helpers/home.ts';

const tempDir = useTempDirs();

describe('the archive', () => {
  it('grows with the transcript and gives back exactly the bytes read', () => {
    const home = tempDir();
    const relative = archivePathFor('claude-code', 'abc', '/x/abc.jsonl', 0);
    expect(relative.startsWith('raw/claude-code/abc/')).toBe(true);
    const one = appendToArchive(home, relative, 0, Buffer.from('{"a":1}\n'));
    const two = appendToArchive(home, relative, one, Buffer.from('{"b":"é"}\n'));
    expect(two).toBeGreaterThan(one);
    expect(readArchive(home, relative, two).toString('utf8')).toBe('{"a":1}\n{"b":"é"}\n');
  });

  it('drops a member that was written but never committed', () => {
    const home = tempDir();
    const relative = archivePathFor('codex', 's', '/x/rollout.jsonl', 0);
    const one = appendToArchive(home, relative, 0, Buffer.from('line 1\n'));
    appendToArchive(home, relative, one, Buffer.from('lost\n')); // a run that died before committing
    const again = appendToArchive(home, relative, one, Buffer.from('line 2\n'));
    expect(statSync(join(home, relative)).size).toBe(again);
    expect(readArchive(home, relative, again).toString()).toBe('line 1\nline 2\n');
  });
});

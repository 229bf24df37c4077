import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { correctionProject, findProjectCue, projectCues } from '../../src/episodes/index.ts';
import { findDataDir, hasData, readRows } from './score.ts';

const project = '/home/dev/ocelot-shop';

describe('what makes a correction project-specific', () => {
  it.each(projectCues.flatMap((cue) => cue.examples.map((example) => [cue.name, example])))(
    'the %s cue meets "%s"',
    (name, example) => {
      expect(findProjectCue(example, project)).toBe(name);
    },
  );

  it.each([
    'no, ask me before you push',
    'stop offering options, just do it',
    'answer in French please',
    'You are in plan mode. Were you able to make these changes?',
  ])('a correction about how the person works names nothing: "%s"', (said) => {
    expect(findProjectCue(said, project)).toBeNull();
  });

  it("the project's own folder words keep a correction in the project", () => {
    expect(findProjectCue('the Ocelot checkout is the slow part', project)).toBe('project name');
  });

  it('a remembered event stays in its project unless it says personal; a transcript correction by its words', () => {
    const base = { project, said: 'answer in French', text: 'answer in French' };
    expect(correctionProject({ ...base, detail: { event: true } })).toBe(project);
    expect(correctionProject({ ...base, detail: { event: true, scope: 'personal' } })).toBeNull();
    expect(correctionProject({ ...base, detail: {} })).toBeNull();
    expect(correctionProject({ ...base, said: 'no, package.json pins it', detail: {} })).toBe(project);
  });

  const data = findDataDir();
  it.skipIf(!hasData(data))(
    'on the labelled corrections: how many stay personal (a count, not a score)',
    () => {
      const counts = { first: { personal: 0, project: 0 }, batch2: { personal: 0, project: 0 } };
      for (const [batch, dir] of [
        ['first', data],
        ['batch2', join(data, 'batch2')],
      ] as const) {
        for (const row of readRows(dir, 'messages')) {
          if (row['label'] !== 'correction') continue;
          const repo = (row['source'] ?? '').split(':')[0]!.split('/')[1] ?? '';
          const cue = findProjectCue(row['said'] ?? '', `/home/dev/${repo}`);
          counts[batch][cue === null ? 'personal' : 'project']++;
        }
      }
      // Written down in docs/RELIABILITY.md; the data holds no scope label, so these are counts, not accuracy.
      expect(counts).toEqual({ first: { personal: 33, project: 30 }, batch2: { personal: 23, project: 12 } });
    },
  );
});

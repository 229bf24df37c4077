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

  it('a remembered event stays in its project unless it says personal; a transcript correction is personal only as a standing rule that names nothing of the project', () => {
    const base = { project, said: 'always answer in French', text: 'always answer in French' };
    expect(correctionProject({ ...base, detail: { event: true } })).toBe(project);
    expect(correctionProject({ ...base, detail: { event: true, scope: 'personal' } })).toBeNull();
    expect(correctionProject({ ...base, detail: {} })).toBeNull();
    expect(correctionProject({ ...base, said: 'from now on, answer in French', detail: {} })).toBeNull();
    expect(correctionProject({ ...base, said: 'never use emojis', detail: {} })).toBeNull();
    expect(correctionProject({ ...base, said: 'отвечай всегда по-русски', detail: {} })).toBeNull();
    expect(correctionProject({ ...base, said: 'désormais, réponds en français', detail: {} })).toBeNull();
    expect(correctionProject({ ...base, said: '以后都用中文回答', detail: {} })).toBeNull();
    expect(correctionProject({ ...base, said: 'nevertheless it fails', detail: {} })).toBe(project);
    expect(correctionProject({ ...base, said: 'no, package.json pins it', detail: {} })).toBe(project);
    // A remark on the task at hand names nothing of the project and is still about its work.
    expect(correctionProject({ ...base, said: 'keep the label as it was', detail: {} })).toBe(project);
    expect(correctionProject({ ...base, said: 'marche pas', detail: {} })).toBe(project);
    expect(correctionProject({ ...base, said: 'always run pnpm lint first', detail: {} })).toBe(project);
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
          const said = row['said'] ?? '';
          const scope = correctionProject({ project: `/home/dev/${repo}`, said, text: said, detail: {} });
          counts[batch][scope === null ? 'personal' : 'project']++;
        }
      }
      // The data holds no scope label, so these are counts, not accuracy: before a correction needed a standing rule
      // to be personal, 33 and 23 were (every one naming nothing of its project, most of one task).
      expect(counts).toEqual({ first: { personal: 2, project: 61 }, batch2: { personal: 0, project: 35 } });
    },
  );
});

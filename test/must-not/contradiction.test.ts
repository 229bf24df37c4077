import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../helpers/home.ts';
import { day, GECKO, storeContradiction } from '../truth/fixtures.ts';
import { seenByEveryPath } from './agent-paths.ts';

const tempDir = useTempDirs();
const { yes, no } = GECKO;

describe('MUST NOT: a contradicted pair appears as a plain lesson', () => {
  it('two surviving lessons that refute each other reach every path only as a question', async () => {
    const home = tempDir();
    storeContradiction(home);
    for (const { path, seen, blob } of await seenByEveryPath({
      home,
      project: '/tmp/remem-must-not-a',
      query: 'gecko cache shared between workers',
      now: day(2),
    })) {
      const plain = seen.filter((item) => item.kind === 'lesson' && item.text.includes('gecko'));
      expect(plain, `MUST NOT show either side of a contradiction as a plain lesson via ${path}`).toEqual([]);
      if (blob) {
        // One block of text: wherever one side is shown, the other stands beside it, as the question.
        const text = seen.map((item) => item.text).join('\n');
        if (text.includes(yes) || text.includes(no)) {
          expect(text, `MUST NOT show one side of a contradiction alone via ${path}`).toContain(yes);
          expect(text, `MUST NOT show one side of a contradiction alone via ${path}`).toContain(no);
        }
        continue;
      }
      const questions = seen.filter((item) => item.kind === 'question');
      expect(questions, `the contradiction must reach ${path} as one question`).toHaveLength(1);
      expect(questions[0]!.text).toContain(yes);
      expect(questions[0]!.text).toContain(no);
    }
  });
});

/**
 * A store filled directly: `lessons` lessons with their vectors and `episodes` episodes, as a long-used
 * memory would hold them, for the benchmarks of the read paths (prime, recall).
 */

import { lessonHash } from '../src/core/index.ts';
import { hashedVector, toBlob } from '../src/embed/index.ts';
import { openStore, type Store } from '../src/store/index.ts';
import { seeded } from './_generate.ts';

const words =
  'install migrate deploy branch merge test lint build cache index query schema config token retry timeout import export parser router handler worker queue release docker pnpm npm yarn python uv pip vitest jest webpack vite postgres redis sqlite kafka nginx auth session cookie header payload'.split(
    ' ',
  );

function sentence(random: () => number, length: number): string {
  return Array.from({ length }, () => words[Math.floor(random() * words.length)]).join(' ');
}

export function fillStore(home: string, counts: { lessons: number; episodes: number }, seed = 11): Store {
  const store = openStore(home);
  const random = seeded(seed);
  const { db } = store;
  const at = '2026-06-01T00:00:00.000Z';
  db.transaction(() => {
    const episode = db.prepare(
      `INSERT INTO episodes (key, kind, origin, agent, session, project, happened_at, recorded_at, title, text, said, detail, touched_at)
       VALUES (?, ?, 'transcript', 'claude-code', ?, ?, ?, ?, ?, ?, ?, '{}', ?)`,
    );
    const vector = db.prepare(
      "INSERT INTO vectors (owner, owner_id, space, dims, data) VALUES (?, ?, 'hashed', 256, ?)",
    );
    const kinds = ['error', 'correction', 'surprise', 'session', 'environment'] as const;
    for (let i = 0; i < counts.episodes; i++) {
      const kind = kinds[i % kinds.length]!;
      const text = sentence(random, 12);
      const id = Number(
        episode.run(
          `k${i}`,
          kind,
          `s${i % 2000}`,
          `/home/dev/p${i % 5}`,
          at,
          at,
          text.slice(0, 40),
          text,
          kind === 'correction' ? text : null,
          at,
        ).lastInsertRowid,
      );
      vector.run('episode', id, toBlob(hashedVector(text, 256)));
    }
    const lesson = db.prepare(
      `INSERT INTO lessons (hash, kind, text, seen, strength, project, origin, review, happened_at, created_at, updated_at, touched_at, decayed_at)
       VALUES (?, ?, ?, 2, 1.5, ?, 'self', 'approved', ?, ?, ?, ?, ?)`,
    );
    for (let i = 0; i < counts.lessons; i++) {
      const kind = (['error', 'correction', 'surprise'] as const)[i % 3]!;
      const text = `The person said: "${sentence(random, 14)}"`;
      const id = Number(
        lesson.run(
          lessonHash(kind, `${text} ${i}`),
          kind,
          text,
          kind === 'correction' ? null : `/home/dev/p${i % 5}`,
          at,
          at,
          at,
          at,
          at,
        ).lastInsertRowid,
      );
      vector.run('lesson', id, toBlob(hashedVector(text, 256)));
    }
  })();
  return store;
}

import { sql as stream } from './migrations/001-stream.ts';
import { sql as lessons } from './migrations/002-lessons.ts';
import { sql as truth } from './migrations/003-truth.ts';
import { sql as sharing } from './migrations/004-sharing.ts';
import { sql as turnChunks } from './migrations/005-turns.ts';
import { sql as peers } from './migrations/006-peers.ts';
import { sql as layerLessons } from './migrations/007-layer-lessons.ts';
import { sql as predictionTally } from './migrations/008-prediction-tally.ts';
import { sql as vectorsInline } from './migrations/009-vectors-inline.ts';
import { sql as lessonSums } from './migrations/010-lesson-sums.ts';
import { sql as currentTallies } from './migrations/011-current-tallies.ts';
import { sql as layerApprovals } from './migrations/012-layer-approvals.ts';
import { sql as injectionMoments } from './migrations/013-injection-moments.ts';
import { sql as candidates } from './migrations/014-candidates.ts';
import { sql as sessionIndex } from './migrations/015-session-index.ts';
import { sql as hashedTerms } from './migrations/016-hashed-terms.ts';

/**
 * Numbered migrations, run in order on open. `PRAGMA user_version` holds how many have run:
 * that number is the schema version, and a later release reads it to know what it opens.
 * Never edit a migration that has shipped; add the next file and list it here.
 */
export const migrations: readonly string[] = [
  stream,
  lessons,
  truth,
  sharing,
  turnChunks,
  peers,
  layerLessons,
  predictionTally,
  vectorsInline,
  lessonSums,
  currentTallies,
  layerApprovals,
  injectionMoments,
  candidates,
  sessionIndex,
  hashedTerms,
];

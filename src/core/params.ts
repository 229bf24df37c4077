/**
 * Every number the memory runs on, in one place (DESIGN.md §4, the paper's Appendix A).
 * `config.json` under REMEM_HOME may override any of them with the same key.
 */
export const defaultParams = {
  hashedDims: 256,
  relevanceFloor: { hashed: 0, model: 0.35 },
  recall: { relevance: 0.6, recency: 0.25, strength: 0.15, recencyHalfLifeDays: 30, touch: 0.1 },
  decay: { halfLifeDays: 45, archiveBelow: 0.15 },
  sameSurprise: { hashed: 0.55, model: 0.62 },
  linkage: { hashed: 0.55, model: 0.57 },
  /**
   * The merge cut for two corrections that name a command in common ("use pnpm not npm", "pnpm, not npm!"): short
   * rules about one tool share few words beyond its name. The model value is a first guess, not measured.
   */
  linkageSameCommand: { hashed: 0.4, model: 0.5 },
  /**
   * The merge cut for two corrections that name a command in common and each state a rule of the house or refuse a
   * call ("use pnpm, not npm — this repo has a pnpm lockfile"; a refused `npm install`, "it's pnpm in this repo, I
   * told you last time"): the same rule said again in other words shares little more than the command.
   */
  linkageSameRule: { hashed: 0.2, model: 0.4 },
  join: { strength: 0.5 },
  /**
   * A prediction fails unmet after `windowDays` days and `windowSessions` sessions of its project, both (sleep's
   * verify pass). Every lesson with no open prediction makes one unless its last one failed and nothing met it
   * since. An unmet correction is neither weakened nor stale (truth/resolve.ts): the agent may have heeded it.
   * Replayed with a sleep after every session, weakening them archived the rules said in a project's first
   * sessions: 23 of 61 repeats caught, 33 without.
   */
  prediction: { matchHashed: 0.5, windowDays: 14, windowSessions: 3, confirmed: 0.5, failed: -0.5 },
  priming: {
    /**
     * The similarity a lesson needs to be put beside a prompt or a call, and how many one prompt gets. Replayed on
     * the development histories with every labelled correction detected (session start at 10 lessons): at 0.3
     * and 2 a prompt, prompts showed 810 items and were first to catch 7 repeats; at 0.45 and 1, 390 and 3; at
     * 0.6 and 1, 308 and 4 (154 once one lesson became one line). Most of what a prompt showed at 0.3 repeated
     * what session start had loaded. 0.4, not 0.6: a plain paraphrase ("run the migrations on the staging
     * database now" against "the staging database rejects migrations during business hours") scores 0.40 once
     * function words are left out (0.44 with them), and a lesson about what the person is asking for must still
     * reach them. Replayed as the product runs (`npm run bench -- replay --unseen`), prompts showed 13 items and
     * were first to catch no repeat; at 0.5, 7 (328 items in all instead of 334, the same 33 repeats caught): not
     * enough to give up the paraphrase.
     */
    hashed: 0.4,
    model: 0.6,
    perPrompt: 1,
    /** Correction lessons a moment reads to confirm what its subjects' screen let through (a hook's cost). */
    subjectReads: 8,
  },
  hook: { deadlineMs: 1500 },
  render: {
    /**
     * The lessons session start loads (`truth/start-block.ts`): up to `standingRules` standing rules, the
     * `recentLessons` most recently said, and the earliest said of the rest. Replayed on the development
     * histories as the product runs (`npm run bench -- replay --unseen`), with the same detector, against the 15
     * strongest and 15 earliest said before: 32 of 61 repeats caught with 1,055 items (896 at session start) → 29
     * with 827 (606), 3.0 → 3.5 caught per 100 items; ten lessons (the same shares) caught 27 with 778. Two
     * histories lose catches (2 of 3, and 1 of 1): lessons deep in the thirty, neither early nor strong.
     */
    sessionStartLessons: 12,
    standingRules: 2,
    /**
     * Places for the lessons first said in the project's latest `recentSessions` sessions, the most recent first;
     * they stay empty when those sessions taught nothing new. Taken as the most recently said whatever their age, one
     * development history loaded a lesson seven sessions old at each of seven session starts; kept for the latest
     * sessions, the replay showed 328 items instead of 334 and caught the same 33 of 61 repeats.
     */
    recentLessons: 2,
    /**
     * Session start loads at most this many lessons for each correction the project's latest `recentSessions`
     * sessions left (on average), up to `sessionStartLessons`; 0 loads `sessionStartLessons` whatever the sessions
     * held; the standing rules load whatever the sessions held. A person who corrects the agent often says it again
     * often; after a session without a correction the block holds only the standing rules, and what applies reaches
     * the agent through the prompt and tool hooks. Replayed on the development histories as the product runs
     * (`npm run bench -- replay --unseen`): 27 of 61 repeats caught with 536 items → 25 with 397, 5.0 → 6.3 caught
     * per 100 items, two histories losing one catch each; counting only sessions of two prompts or more, 26 with 437
     * (6.0), one history losing one.
     */
    perRecentCorrection: 2,
    recentSessions: 1,
    /** The sessions counted have at least this many prompts: one prompt says little of how a person corrects. */
    recentSessionPrompts: 2,
  },
  holdoutShare: 0.5,
  sharing: { candidateStrength: 0.5, corroboration: 0.5, maxChars: 300 },
  doors: {
    /** A JSON body to `remem serve`, `remem ui` or the proxy's memory routes: an event is a few sentences. */
    maxBodyBytes: 1024 * 1024,
    /** A model request through the proxy, images carried inside it as base64. */
    proxyMaxBodyBytes: 64 * 1024 * 1024,
    /** Arrays and objects nested deeper than this are refused before anything parses them. */
    maxJsonDepth: 64,
  },
  events: {
    /** One remembered event's text fields together, in characters: a correction quotes a message or two. */
    maxChars: 20_000,
  },
  stream: {
    /**
     * A transcript line longer than this is skipped with a warning and never decoded: parsing a line costs
     * several times its size (a 63 MB line took 2.8 GB), and a turn worth a lesson is far shorter.
     */
    maxLineBytes: 16 * 1024 * 1024,
    /**
     * How long a read of an agent's own SQLite store waits on a lock the agent holds. OpenCode's store is in WAL
     * mode, where readers never wait; another mode's write lock lasts a transaction. Short: a night that cannot
     * read a store says so and reads it the next time.
     */
    agentStoreBusyMs: 2000,
  },
  commons: { maxRecords: 1000, maxBytes: 256 * 1024, confirmations: 3, fadeDays: 90 },
  gossip: {
    /** Peers `remem run` pulls from each night (protocol §5: a few; the simulation's aim holds at 3). */
    fanout: 3,
    /** Per request to a peer: a peer that is down or slow costs the night no more than this. */
    timeoutMs: 5000,
    /** Per peer, all its requests together. */
    peerBudgetMs: 20_000,
    /** Peers learned from others' indexes kept at most; configured peers are never counted or dropped. */
    maxLearned: 100,
    /** A learned peer that failed this many nights in a row is forgotten. */
    forgetAfterFailures: 5,
  },
  wording: {
    /** One lesson's wording by the model: a local model answers one sentence well within this. */
    timeoutMs: 20_000,
    /** All of a night's wordings together: past it, the rest keep their deterministic wording. */
    budgetMs: 120_000,
    /** A model's wording is a sentence or two, short enough to share (sharing.maxChars). */
    maxChars: 300,
  },
  judge: {
    /**
     * The band under the correction detector's threshold whose messages are kept as candidates for the judge:
     * a message the model scored in [threshold - band, threshold). Read at ingest, only when a judge is on; at
     * most 0.3 (ingest derives no wider band).
     */
    band: 0.15,
    /** Candidates put to the judge in one night, the closest to the threshold first; the rest wait. */
    budget: 50,
    /** One yes or no: a local model answers a word well within this. */
    timeoutMs: 20_000,
    /** Nights a candidate is tried before it is given up (a server down, an answer neither yes nor no). */
    maxTries: 3,
  },
  truth: {
    /**
     * Two lessons are about one subject when the hashed-space cosine of their words reaches this: lower than
     * the merge cut (0.55), since two lessons that say opposite things share fewer words than two that agree.
     */
    subjectCut: 0.35,
    /**
     * The most terms a lesson's words may have and still make one claim whose polarity sleep reads. Longer words
     * (a pasted error, a paragraph of instructions) say several things at once; read as one claim, two long
     * corrections about different things shared enough words to pass the subject cut and their negation counts
     * differed by chance, so one superseded the other. On the development histories, pairs of corrections of
     * different themes over the subject cut and opposite in polarity: 614 of 30,319 related before, 9 of 4,944
     * with this limit.
     */
    claimMaxTerms: 20,
    /** Approve a received lesson without review when the commons holds it as common. Off: a person decides. */
    autoApproveCommon: false as boolean,
  },
} as const;

type Widen<T> = T extends number ? number : T extends object ? { -readonly [K in keyof T]: Widen<T[K]> } : T;
export type Params = Widen<typeof defaultParams>;

/** The kinds of episode sleep turns into lessons; the rest are kept but never consolidated. */
export const consolidatedKinds = ['error', 'correction', 'surprise'] as const;

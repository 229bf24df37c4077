import { api, postJson } from './api.js';
import { figure } from './charts.js';
import { announce, facts, fill, h, number, when, words } from './dom.js';

const RELATION_WORDS = {
  from: {
    supersedes: 'This lesson supersedes',
    refutes: 'This lesson refutes',
    supports: 'This lesson agrees with',
    derived_from: 'This theme took in',
  },
  to: {
    supersedes: 'Superseded by',
    refutes: 'Refuted by',
    supports: 'Agreed with by',
    derived_from: 'Taken into the theme',
  },
};

function short(session) {
  return session.length > 12 ? `${session.slice(0, 8)}…` : session;
}

function sourceItem(source) {
  const exchange =
    source.said !== null
      ? h(
          'div',
          { class: 'exchange' },
          source.agentBefore !== null
            ? h(
                'blockquote',
                { class: 'agent' },
                h('p', { class: 'who' }, 'The agent said'),
                h('p', {}, source.agentBefore),
              )
            : null,
          h(
            'blockquote',
            { class: 'person' },
            h('p', { class: 'who' }, source.agentBefore !== null ? 'The person answered' : 'The person said'),
            h('p', {}, source.said),
          ),
        )
      : h(
          'div',
          { class: 'exchange' },
          h('p', { class: 'source-title' }, source.title),
          source.text && source.text !== source.title
            ? h('pre', { class: 'source-text' }, source.text)
            : null,
        );
  return h(
    'li',
    {},
    h(
      'article',
      { class: 'source', dataset: { episodeId: String(source.id) } },
      h('h3', {}, `${source.kind} · `, when(source.happenedAt)),
      exchange,
      facts(
        [
          ['Session', h('code', { title: source.session }, source.session)],
          ['Agent', source.agent],
          ['Project', source.project ?? '—'],
          [
            'Transcript',
            source.file
              ? [h('code', {}, source.file), source.line !== null ? `, line ${source.line}` : '']
              : 'an event (no transcript)',
          ],
          [
            'Archived as',
            source.archive
              ? [h('code', {}, source.archive), source.line !== null ? `, line ${source.line}` : '']
              : null,
          ],
          ['Recorded', when(source.recordedAt)],
        ],
        'facts where',
      ),
    ),
  );
}

function predictionsList(predictions) {
  if (predictions.length === 0)
    return h('p', {}, 'No predictions yet: a lesson predicts once its strength reaches 1.');
  return h(
    'ol',
    { class: 'predictions' },
    predictions.map((prediction) =>
      h(
        'li',
        { class: `prediction prediction-${prediction.state}` },
        h(
          'p',
          {},
          h('strong', {}, prediction.state),
          ' · made ',
          when(prediction.madeAt),
          ' · due ',
          when(prediction.dueAt),
          prediction.resolvedAt ? [' · resolved ', when(prediction.resolvedAt)] : null,
        ),
        prediction.episode
          ? h(
              'p',
              { class: 'muted' },
              `Met by episode #${prediction.episode.id} in session `,
              h('code', { title: prediction.episode.session }, short(prediction.episode.session)),
              `: ${prediction.episode.title}`,
            )
          : null,
      ),
    ),
  );
}

function relationsList(relations) {
  if (relations.length === 0) return h('p', {}, 'No other lesson bears on this one.');
  return h(
    'ul',
    { class: 'relations' },
    relations.map((relation) =>
      h(
        'li',
        {},
        h(
          'p',
          {},
          `${RELATION_WORDS[relation.direction][relation.kind] ?? relation.kind} `,
          h('a', { href: `#/lesson/${relation.otherId}` }, `lesson #${relation.otherId}`),
          relation.other ? ` (${relation.other.kind}, ${words(relation.other.state)})` : '',
        ),
        relation.other ? h('p', { class: 'lesson-text' }, relation.other.text) : null,
        h(
          'p',
          { class: 'muted' },
          `Decided by ${relation.actor === 'person' ? 'you' : 'sleep'}, `,
          when(relation.recordedAt),
          relation.reason ? `: ${relation.reason}` : '',
        ),
      ),
    ),
  );
}

function provenanceText(lesson) {
  const parts = [
    lesson.origin === 'self' ? 'Learned in this memory' : `Received from the memory ${lesson.origin}`,
  ];
  if (lesson.confirmedBy.length) parts.push(`confirmed by ${lesson.confirmedBy.join(', ')}`);
  if (lesson.corroboratedBy.length) parts.push(`corroborated by ${lesson.corroboratedBy.join(', ')}`);
  if (lesson.confirmations > 0) parts.push(`${lesson.confirmations} of its predictions came true here`);
  return parts.join('; ');
}

/** Asks before the veto, in a modal dialog that keeps the focus; resolves true when the person said yes. */
function confirmVeto(lesson) {
  const dialog = document.getElementById('confirm');
  document.getElementById('confirm-title').textContent = `Forget lesson #${lesson.id}?`;
  document
    .getElementById('confirm-body')
    .replaceChildren(
      h('p', { class: 'lesson-text' }, lesson.text),
      h(
        'p',
        {},
        'It will never be written again: its hash becomes a tombstone, so the same lesson arriving from any session or memory is refused. Its sources stay in the archive.',
      ),
      h('p', {}, 'The same as ', h('code', {}, `remem forget ${lesson.id}`), ' at the terminal.'),
    );
  dialog.returnValue = '';
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => resolve(dialog.returnValue === 'forget'), { once: true });
    dialog.showModal();
  });
}

function forgetSection(lesson, done) {
  if (lesson.state === 'vetoed') {
    return h(
      'section',
      { 'aria-labelledby': 'forget-title' },
      h('h2', { id: 'forget-title' }, 'Forget'),
      h('p', {}, 'Vetoed ', when(lesson.vetoedAt), ': it is never written again.'),
    );
  }
  const status = h('p', { class: 'muted', role: 'status' });
  const button = h(
    'button',
    {
      type: 'button',
      class: 'danger',
      onclick: async () => {
        if (!(await confirmVeto(lesson))) return;
        button.disabled = true;
        status.textContent = 'Forgetting…';
        try {
          const answer = await postJson(`lessons/${lesson.id}/forget`, { confirm: true });
          const ids = answer.vetoed.map((vetoed) => `#${vetoed.id}`).join(', ');
          done(
            answer.vetoed.length
              ? `Forgot lesson ${ids}. It will never be written again.`
              : `Lesson #${lesson.id} was already vetoed.`,
          );
        } catch (error) {
          button.disabled = false;
          status.textContent = `Nothing was changed: ${error.message}`;
        }
      },
    },
    'Forget this lesson…',
  );
  return h(
    'section',
    { 'aria-labelledby': 'forget-title', class: 'forget' },
    h('h2', { id: 'forget-title' }, 'Forget'),
    h(
      'p',
      {},
      'A veto: this lesson, and every lesson merged with it, is never written again and never reaches an agent.',
    ),
    button,
    status,
  );
}

/** One lesson, down to the words that taught it. */
export async function lessonView(main, id, { flash }) {
  const detail = await api(`lessons/${encodeURIComponent(id)}`);
  const { lesson } = detail;
  fill(
    main,
    h('p', { class: 'back' }, h('a', { href: '#/lessons' }, '← All lessons')),
    h('h1', { tabindex: '-1' }, `Lesson #${lesson.id} `, h('span', { class: 'badge' }, lesson.kind)),
    h('blockquote', { class: 'lesson-text big' }, h('p', {}, lesson.text)),
    facts([
      ['Strength', number(lesson.strength)],
      ['Seen', String(lesson.seen)],
      ['State', words(lesson.state)],
      ['Validity', words(lesson.validity)],
      ['Why', lesson.resolution ? words(lesson.resolution) : 'no lesson of its subject holds'],
      [
        'Reaches agents',
        lesson.reach === 'held'
          ? `no: ${words(lesson.heldBecause)}`
          : lesson.reach === 'question'
            ? 'as an open question'
            : 'yes',
      ],
      ['Review', words(lesson.review)],
      ['Scope', lesson.scope === 'personal' ? 'personal (every project)' : lesson.project],
      ['Where it came from', provenanceText(lesson)],
      [
        'Predictions',
        `${lesson.confirmations} confirmed, ${lesson.failures} failed, ${lesson.predicting} open`,
      ],
      lesson.conflictsWith.length
        ? [
            'Disagrees with',
            lesson.conflictsWith.map((other) => h('a', { href: `#/lesson/${other}` }, `#${other} `)),
          ]
        : ['Disagrees with', null],
      lesson.mergedInto !== null
        ? ['Merged into', h('a', { href: `#/lesson/${lesson.mergedInto}` }, `#${lesson.mergedInto}`)]
        : ['Merged into', null],
      ['Learned', when(lesson.createdAt)],
      ['Last changed', when(lesson.updatedAt)],
      ['Hash', h('code', {}, lesson.hash)],
    ]),
    figure(detail.chart, { level: 'h2' }),
    h(
      'section',
      { 'aria-labelledby': 'sources-title' },
      h('h2', { id: 'sources-title' }, `Sources (${detail.sources.length})`),
      detail.sources.length
        ? h('ol', { class: 'sources' }, detail.sources.map(sourceItem))
        : h(
            'p',
            {},
            lesson.origin === 'self'
              ? 'No source is kept.'
              : 'Received from another memory: only the lesson travels, never the episodes that taught it.',
          ),
    ),
    h(
      'section',
      { 'aria-labelledby': 'predictions-title' },
      h('h2', { id: 'predictions-title' }, `Predictions (${detail.predictions.length})`),
      predictionsList(detail.predictions),
    ),
    h(
      'section',
      { 'aria-labelledby': 'relations-title' },
      h('h2', { id: 'relations-title' }, `Relations (${detail.relations.length})`),
      relationsList(detail.relations),
    ),
    forgetSection(lesson, (message) => {
      announce(message);
      flash(message);
      window.location.hash = '#/lessons';
    }),
  );
}

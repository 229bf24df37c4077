import { api } from './api.js';
import { facts, fill, h, number, words } from './dom.js';

const KINDS = ['error', 'correction', 'surprise'];
const STATES = ['active', 'archived', 'merged', 'vetoed', 'pending_review', 'rejected', 'all'];

function validityText(lesson) {
  const why = [words(lesson.validity)];
  if (lesson.resolution) why.push(words(lesson.resolution));
  if (lesson.supersededBy !== null) why.push(`by #${lesson.supersededBy}`);
  return why.join(', ');
}

function originText(lesson) {
  return lesson.origin === 'self' ? 'learned here' : `received from ${lesson.origin}`;
}

/** A lesson as a card: what it says, and the facts about it, linking to everything behind it. */
export function lessonCard(lesson, { heading = 'h3' } = {}) {
  return h(
    'article',
    { class: `lesson kind-${lesson.kind}`, dataset: { lessonId: String(lesson.id), state: lesson.state } },
    h(
      heading,
      { class: 'lesson-title' },
      h('a', { href: `#/lesson/${lesson.id}` }, `Lesson #${lesson.id}`),
      ' ',
      h('span', { class: 'badge' }, lesson.kind),
    ),
    h('p', { class: 'lesson-text' }, lesson.text),
    facts([
      ['Strength', number(lesson.strength)],
      ['Seen', String(lesson.seen)],
      ['State', words(lesson.state)],
      ['Validity', validityText(lesson)],
      ['Review', words(lesson.review)],
      ['Scope', lesson.scope === 'personal' ? 'personal (every project)' : lesson.project],
      ['Origin', originText(lesson)],
      lesson.confirmations + lesson.failures + lesson.predicting > 0
        ? [
            'Predictions',
            `${lesson.confirmations} confirmed, ${lesson.failures} failed, ${lesson.predicting} open`,
          ]
        : ['Predictions', null],
    ]),
    h(
      'p',
      { class: 'open' },
      h(
        'a',
        { href: `#/lesson/${lesson.id}` },
        'Sources, predictions and history',
        h('span', { class: 'visually-hidden' }, ` of lesson #${lesson.id}`),
      ),
    ),
  );
}

function questionBlock(question) {
  return h(
    'section',
    {
      class: 'question',
      'aria-label': `Lessons #${question.lessons[0].id} and #${question.lessons[1].id} disagree`,
    },
    h(
      'p',
      { class: 'question-text' },
      'Which holds is an open question: agents are asked, not told, until one is settled.',
    ),
    h(
      'div',
      { class: 'pair' },
      question.lessons.map((lesson) => lessonCard(lesson, { heading: 'h4' })),
    ),
  );
}

function option(value, label, selected) {
  return h('option', { value, selected: value === selected }, label);
}

function filters(state, facets, onChange) {
  const projects = Object.keys(facets.projects).sort((a, b) =>
    a === 'personal' ? -1 : b === 'personal' ? 1 : a.localeCompare(b),
  );
  const select = (name, label, choices) =>
    h('label', {}, h('span', {}, label), h('select', { name, onchange: onChange }, choices));
  return h(
    'form',
    { class: 'filters', 'aria-label': 'Filter the lessons', onsubmit: (event) => event.preventDefault() },
    select('kind', 'Kind', [
      option('', 'every kind', state.kind ?? ''),
      KINDS.map((kind) => option(kind, `${kind} (${facets.kinds[kind] ?? 0})`, state.kind ?? '')),
    ]),
    select('project', 'Project', [
      option('', 'every project', state.project ?? ''),
      projects.map((project) =>
        option(project, `${project} (${facets.projects[project]})`, state.project ?? ''),
      ),
    ]),
    select(
      'state',
      'State',
      STATES.map((name) =>
        option(
          name,
          name === 'all' ? 'every state' : `${words(name)} (${facets.states[name] ?? 0})`,
          state.state ?? 'active',
        ),
      ),
    ),
  );
}

function hitItem(hit) {
  const score = `score ${number(hit.score, 3)} (relevance ${number(hit.components.relevance, 2)}, recency ${number(hit.components.recency, 2)}, strength ${number(hit.components.strength, 2)})`;
  if (hit.type === 'lesson') {
    return h(
      'li',
      { class: 'hit' },
      h(
        'p',
        {},
        h('a', { href: `#/lesson/${hit.id}` }, `Lesson #${hit.id}`),
        ` · ${hit.kind} · ${words(hit.state)}`,
      ),
      h('p', { class: 'lesson-text' }, hit.text),
      h('p', { class: 'muted' }, score),
    );
  }
  return h(
    'li',
    { class: 'hit' },
    h(
      'p',
      {},
      `Episode #${hit.id} · ${hit.kind} · session `,
      h('code', {}, hit.session ?? '—'),
      hit.lessonId
        ? [' · source of ', h('a', { href: `#/lesson/${hit.lessonId}` }, `lesson #${hit.lessonId}`)]
        : null,
    ),
    h('p', { class: 'lesson-text' }, hit.title),
    h('p', { class: 'muted' }, score),
  );
}

async function runSearch(query, results, clearHref) {
  results.hidden = false;
  fill(results, h('h2', { id: 'results-title' }, 'Searching…'));
  const answer = await api(`search?${new URLSearchParams({ q: query, k: '10' })}`);
  fill(
    results,
    h('h2', { id: 'results-title' }, `${answer.hits.length} found for “${answer.query}”`),
    h('p', {}, h('a', { href: clearHref }, 'Clear the search')),
    h(
      'p',
      { class: 'muted' },
      `Ranked as recall ranks them (0.60 relevance + 0.25 recency + 0.15 strength, ${answer.space} space), over every lesson and episode. Looking touches nothing.`,
    ),
    answer.hits.length
      ? h('ol', { class: 'hits' }, answer.hits.map(hitItem))
      : h('p', {}, 'Nothing relevant.'),
  );
}

/** The lessons page: search, filters, the open questions, then the lessons. `state` is the query of the address. */
export async function lessonsView(main, state, navigate) {
  const query = new URLSearchParams();
  for (const name of ['kind', 'project', 'state']) if (state[name]) query.set(name, state[name]);
  const list = await api(`lessons?${query}`);
  const results = h('section', { class: 'results', 'aria-labelledby': 'results-title', hidden: true });
  const input = h('input', { type: 'search', id: 'q', name: 'q', value: state.q ?? '', autocomplete: 'off' });
  const search = h(
    'form',
    {
      role: 'search',
      class: 'search',
      onsubmit: (event) => {
        event.preventDefault();
        navigate({ ...state, q: input.value.trim() || undefined });
      },
    },
    h('label', { for: 'q' }, 'Search lessons and episodes'),
    h('div', { class: 'row' }, input, h('button', { type: 'submit' }, 'Search')),
  );
  const onChange = (event) => {
    const form = event.target.form;
    navigate({
      kind: form.kind.value || undefined,
      project: form.project.value || undefined,
      state: form.state.value === 'active' ? undefined : form.state.value,
      q: state.q,
    });
  };
  const chosen = state.state ?? 'active';
  fill(
    main,
    h('h1', { tabindex: '-1' }, 'Lessons'),
    h(
      'p',
      { class: 'lede' },
      'What the memory holds: every lesson with its strength, whether it holds and why, and where it came from. Open one for its sources.',
    ),
    search,
    results,
    filters(state, list.facets, onChange),
    list.questions.length
      ? h(
          'section',
          { 'aria-labelledby': 'questions-title', class: 'questions' },
          h('h2', { id: 'questions-title' }, `Open questions (${list.questions.length})`),
          h('p', {}, 'These lessons refute each other and nothing settles which holds.'),
          list.questions.map(questionBlock),
        )
      : null,
    h(
      'section',
      { 'aria-labelledby': 'list-title' },
      h(
        'h2',
        { id: 'list-title' },
        `${list.lessons.length} ${chosen === 'all' ? '' : `${words(chosen)} `}lesson${list.lessons.length === 1 ? '' : 's'}`,
      ),
      list.lessons.length
        ? h(
            'ol',
            { class: 'lessons' },
            list.lessons.map((lesson) => h('li', {}, lessonCard(lesson))),
          )
        : h(
            'p',
            {},
            chosen === 'active'
              ? 'No active lessons. Choose another state, or run `remem sleep` after an ingest.'
              : 'None.',
          ),
    ),
  );
  if (state.q) await runSearch(state.q, results, `#/lessons${query.toString() ? `?${query}` : ''}`);
}

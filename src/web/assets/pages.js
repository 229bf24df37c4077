import { api } from './api.js';
import { figure } from './charts.js';
import { facts, fill, h, percent, when, words } from './dom.js';
import { lessonCard } from './lessons-view.js';

function armText(label, arm) {
  if (arm.n === 0) return `${label}: none yet.`;
  return `${label}: ${arm.k} of ${arm.n} followed by the same surprise (${percent(arm.rate)}; 95% interval ${percent(arm.low)} to ${percent(arm.high)}).`;
}

/** The memory's own measures, as charts with their numbers. */
export async function chartsView(main) {
  const series = await api('series');
  const { totals, primes } = series;
  fill(
    main,
    h('h1', { tabindex: '-1' }, 'How the memory is doing'),
    h(
      'p',
      { class: 'lede' },
      'Read from the store alone, the same figures as ',
      h('code', {}, 'remem measure'),
      '.',
    ),
    facts([
      ['Sessions', String(totals.sessions)],
      ['Surprises', String(totals.surprises)],
      [
        'Predictions',
        `${totals.predictions.made} made: ${totals.predictions.confirmed} confirmed, ${totals.predictions.failed} failed, ${totals.predictions.open} open`,
      ],
      ['Accuracy', percent(totals.predictions.accuracy)],
    ]),
    series.charts.map((chart) => {
      const box = figure(chart);
      if (chart.id === 'primes') {
        box
          .querySelector('figcaption')
          .append(
            h('p', {}, armText('Shown', primes.shown)),
            h('p', {}, armText('Held out', primes.heldOut)),
            h(
              'p',
              {},
              primes.p === null
                ? 'No comparison yet: each side needs a prime.'
                : `Fisher exact test, two-sided: p = ${primes.p.toFixed(3)}.`,
            ),
          );
      }
      return box;
    }),
  );
}

/** A morning report in the words of `remem report`: its headings and bullets, as text. */
function reportBody(text) {
  const blocks = [];
  let list = null;
  for (const line of text.split('\n')) {
    if (line.startsWith('## How replies handed the decision back')) break;
    if (line.startsWith('- ')) {
      list ??= h('ul', {});
      list.append(h('li', {}, line.slice(2)));
      continue;
    }
    if (list) {
      blocks.push(list);
      list = null;
    }
    if (line.startsWith('# ')) continue;
    if (line.startsWith('## ')) blocks.push(h('h3', {}, line.slice(3)));
    else if (line.trim()) blocks.push(h('p', {}, line));
  }
  if (list) blocks.push(list);
  return blocks;
}

function tallyTable(tally) {
  if (tally.length === 0) return h('p', {}, 'No reply handed the decision back yet.');
  return h(
    'table',
    {},
    h('caption', { class: 'visually-hidden' }, 'Hand-backs by kind and answer'),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', { scope: 'col' }, 'How the reply handed back'),
        h('th', { scope: 'col' }, 'How you answered'),
        h('th', { scope: 'col' }, 'Times'),
      ),
    ),
    h(
      'tbody',
      {},
      tally.map((row) =>
        h(
          'tr',
          {},
          h('td', {}, row.kind),
          h('td', {}, row.answer),
          h('td', { class: 'num' }, String(row.count)),
        ),
      ),
    ),
  );
}

/** The last night's report and the delegation tally: the owner's view, never an agent's. */
export async function reportView(main) {
  const view = await api('report');
  fill(
    main,
    h('h1', { tabindex: '-1' }, 'Morning report'),
    view.at
      ? h(
          'p',
          { class: 'lede' },
          'What the last sleep did, ',
          when(view.at),
          '. The same as ',
          h('code', {}, 'remem report'),
          '.',
        )
      : null,
    h('article', { class: 'report', 'aria-label': 'The report' }, reportBody(view.text)),
    h(
      'section',
      { 'aria-labelledby': 'tally-title' },
      h('h2', { id: 'tally-title' }, 'How replies handed the decision back'),
      h('p', {}, 'The delegation tally: for you; never shown to an agent.'),
      tallyTable(view.tally),
    ),
  );
}

function commonsText(commons) {
  if (!commons) return 'no record of it is held';
  const parts = [
    `${commons.state}: ${commons.confirmations} independent confirmation${commons.confirmations === 1 ? '' : 's'}`,
  ];
  if (commons.lastConfirmed) parts.push(`last ${new Date(commons.lastConfirmed).toLocaleDateString()}`);
  if (commons.revokedBy) parts.push(`revoked by ${commons.revokedBy}`);
  return parts.join(', ');
}

/** The review queue and the received lessons; approving stays at the terminal. */
export async function reviewView(main) {
  const view = await api('review');
  fill(
    main,
    h('h1', { tabindex: '-1' }, 'Review'),
    h(
      'aside',
      { class: 'callout', 'aria-labelledby': 'how-title' },
      h('h2', { id: 'how-title' }, 'Approving stays at your terminal'),
      h(
        'p',
        {},
        'Lessons from other memories reach no agent until you approve them, and only a person at an interactive terminal can: not this page, not an agent, not a hook. At the terminal:',
      ),
      h('pre', {}, view.howToApprove.join('\n')),
    ),
    h(
      'section',
      { 'aria-labelledby': 'queue-title' },
      h('h2', { id: 'queue-title' }, `Waiting for review (${view.queue.length})`),
      view.queue.length
        ? h(
            'ol',
            { class: 'lessons' },
            view.queue.map((lesson) =>
              h(
                'li',
                {},
                lessonCard(lesson),
                h(
                  'p',
                  { class: 'muted' },
                  'To approve it: ',
                  h('code', {}, `remem review approve ${lesson.id}`),
                ),
              ),
            ),
          )
        : h('p', {}, 'Nothing waits for review.'),
    ),
    h(
      'section',
      { 'aria-labelledby': 'received-title' },
      h('h2', { id: 'received-title' }, `Received from other memories (${view.received.length})`),
      view.received.length
        ? h(
            'table',
            {},
            h('caption', { class: 'visually-hidden' }, 'Received lessons'),
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                ['Lesson', 'From', 'Review', 'In the commons', 'Supported by'].map((label) =>
                  h('th', { scope: 'col' }, label),
                ),
              ),
            ),
            h(
              'tbody',
              {},
              view.received.map(({ lesson, commons }) =>
                h(
                  'tr',
                  {},
                  h('td', {}, h('a', { href: `#/lesson/${lesson.id}` }, `#${lesson.id}`), ' ', lesson.text),
                  h('td', {}, h('code', {}, lesson.origin)),
                  h('td', {}, words(lesson.review)),
                  h('td', {}, commonsText(commons)),
                  h(
                    'td',
                    {},
                    [
                      ...lesson.confirmedBy.map((origin) => `${origin} (confirmed)`),
                      ...lesson.corroboratedBy.map((origin) => `${origin} (corroborated)`),
                    ].join(', ') || '—',
                  ),
                ),
              ),
            ),
          )
        : h(
            'p',
            {},
            'Nothing received yet: ',
            h('code', {}, 'remem receive'),
            ' brings lessons from a folder or a commons.',
          ),
    ),
  );
}

import { api, takeToken, Unauthorized } from './api.js';
import { fill, h, when } from './dom.js';
import { lessonView } from './lesson-view.js';
import { lessonsView } from './lessons-view.js';
import { chartsView, reportView, reviewView } from './pages.js';

const main = document.getElementById('main');
let pendingFlash = null;
let shown = null;

/** The address says what is shown: `#/lessons?kind=error`, `#/lesson/12`, `#/charts`, `#/report`, `#/review`. */
function parseRoute() {
  const [path, search = ''] = window.location.hash.replace(/^#/, '').split('?');
  const parts = (path || '/lessons').split('/').filter(Boolean);
  return {
    name: parts[0] ?? 'lessons',
    id: parts[1],
    query: Object.fromEntries(new URLSearchParams(search)),
  };
}

function navigateLessons(query) {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value) search.set(name, value);
  const text = search.toString();
  window.location.hash = `#/lessons${text ? `?${text}` : ''}`;
}

function markNavigation(name) {
  const section = name === 'lesson' ? 'lessons' : name;
  for (const link of document.querySelectorAll('nav a')) {
    if (link.getAttribute('href') === `#/${section}`) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
}

function noToken(refused) {
  fill(
    main,
    h('h1', { tabindex: '-1' }, 'This page needs its token'),
    refused ? h('p', { role: 'alert' }, `The token was refused: ${refused}.`) : null,
    h(
      'p',
      {},
      'Open the address that ',
      h('code', {}, 'remem ui'),
      ' printed: it carries the token this page sends with every request.',
    ),
    h('p', {}, 'The token is in ', h('code', {}, 'REMEM_HOME/token'), '; it stays in this tab only.'),
  );
}

async function showStatus() {
  const overview = await api('overview');
  const active = overview.lessons.active ?? 0;
  document
    .getElementById('status')
    .replaceChildren(
      `${active} active lesson${active === 1 ? '' : 's'}`,
      overview.questions
        ? ` · ${overview.questions} open question${overview.questions === 1 ? '' : 's'}`
        : '',
      (overview.lessons.pending_review ?? 0) ? ` · ${overview.lessons.pending_review} to review` : '',
      ' · last slept ',
      overview.lastSleep ? when(overview.lastSleep) : 'never',
    );
}

async function render() {
  // An in-page anchor is not a page: it redraws nothing once a page is shown.
  if (shown !== null && window.location.hash && !window.location.hash.startsWith('#/')) return;
  const route = parseRoute();
  markNavigation(route.name);
  const flash = pendingFlash;
  pendingFlash = null;
  // Changing a filter redraws the same page: the focus stays on the control that changed it.
  const active = document.activeElement;
  const keep =
    shown === route.name && main.contains(active) ? active.id || active.getAttribute('name') : null;
  const first = shown === null;
  shown = route.name;
  try {
    if (route.name === 'lesson' && route.id) {
      await lessonView(main, route.id, {
        flash: (message) => {
          pendingFlash = message;
        },
      });
    } else if (route.name === 'charts') await chartsView(main);
    else if (route.name === 'report') await reportView(main);
    else if (route.name === 'review') await reviewView(main);
    else await lessonsView(main, route.query, navigateLessons);
    if (flash) main.prepend(h('p', { class: 'flash', role: 'status' }, flash));
    document.title = `${main.querySelector('h1')?.textContent ?? 'Remem'} — Remem`;
    const again = keep
      ? (document.getElementById(keep) ?? main.querySelector(`[name="${CSS.escape(keep)}"]`))
      : null;
    // A new page takes the focus to its heading; the first one leaves it at the top, by the skip link.
    if (!first) (again ?? main.querySelector('h1'))?.focus();
    showStatus().catch(() => {});
  } catch (error) {
    if (error instanceof Unauthorized) return noToken(error.message);
    fill(main, h('h1', { tabindex: '-1' }, 'Something went wrong'), h('p', {}, error.message));
  }
}

// The skip link moves the focus without touching the address, which names the page.
document.querySelector('.skip').addEventListener('click', (event) => {
  event.preventDefault();
  main.focus();
});

if (takeToken()) {
  window.addEventListener('hashchange', render);
  render();
} else noToken();

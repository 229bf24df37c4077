/**
 * Builds an element. Text goes in as text nodes, never as markup, so nothing from the memory can become HTML.
 * Attributes: `class`, `on<event>` listeners, `dataset`, and the rest as attributes (true: present; null/false: absent).
 */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === 'class') element.className = value;
    else if (name === 'dataset') Object.assign(element.dataset, value);
    else if (name.startsWith('on')) element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat(Number.POSITIVE_INFINITY)) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : String(child));
  }
  return element;
}

/** A time as the person reads it: date and minutes, in their own time zone; the exact one on hover. */
export function when(iso) {
  if (!iso) return '—';
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const text = at.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  return h('time', { datetime: iso, title: iso }, text);
}

export function number(value, digits = 2) {
  return value === null || value === undefined ? '—' : Number(value).toFixed(digits);
}

export function percent(share) {
  return share === null || share === undefined ? '—' : `${Math.round(share * 1000) / 10}%`;
}

/** Words for the store's names: `pending_review` → `pending review`. */
export function words(name) {
  return name === null || name === undefined ? '—' : String(name).replaceAll('_', ' ');
}

/** A `<dl>` of label and value pairs; pairs whose value is null are left out. */
export function facts(pairs, className = 'facts') {
  return h(
    'dl',
    { class: className },
    pairs
      .filter(([, value]) => value !== null && value !== undefined)
      .map(([label, value]) => h('div', {}, h('dt', {}, label), h('dd', {}, value))),
  );
}

/** Tells a screen reader what just happened, without moving the focus. */
export function announce(text) {
  const region = document.getElementById('announce');
  region.textContent = '';
  setTimeout(() => {
    region.textContent = text;
  }, 50);
}

/** Replaces what `parent` holds, with children as `h` takes them (nested lists; null and false left out). */
export function fill(parent, ...children) {
  parent.replaceChildren(...h('div', {}, ...children).childNodes);
}

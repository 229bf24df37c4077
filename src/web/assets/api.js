const KEY = 'remem-token';

/** The token arrives once in the address `remem ui` printed; it is kept for this tab and taken out of the address. */
export function takeToken() {
  const url = new URL(window.location.href);
  const given = url.searchParams.get('token');
  if (given) {
    sessionStorage.setItem(KEY, given);
    url.searchParams.delete('token');
    history.replaceState(null, '', `${url.pathname}${url.search}${url.hash}`);
  }
  return sessionStorage.getItem(KEY);
}

export class Unauthorized extends Error {}

/** A JSON route under `api/`, relative to the page so the view works wherever it is mounted. */
export async function api(path, init = {}) {
  const token = sessionStorage.getItem(KEY) ?? '';
  const response = await fetch(`api/${path}`, {
    ...init,
    headers: { Accept: 'application/json', ...init.headers, Authorization: `Bearer ${token}` },
  });
  const body = await response.json().catch(() => ({}));
  if (response.status === 401) throw new Unauthorized(body.reason ?? 'the token was refused');
  if (!response.ok) throw new Error(body.reason ?? `${response.status} ${response.statusText}`);
  return body;
}

export function postJson(path, value) {
  return api(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(value),
  });
}

// The dashboard's HTTP API (`/admin/api/...`), always with `Authorization: Bearer TOKEN`.

export class Unauthorized extends Error {}

/**
 * Calls `path` with `method`; resolves to the parsed JSON body. Rejects with `Unauthorized` on 401 and with an
 * Error carrying the server's message otherwise.
 */
export async function call(token, path, method = 'GET') {
  const response = await fetch(path, { method, headers: { Authorization: `Bearer ${token}` }, cache: 'no-store' });
  if (response.status === 401) throw new Unauthorized(await response.text());
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (!response.ok) throw new Error(body?.message ?? `The server answered ${response.status}.`);
  return body;
}

export const rooms = (token) => call(token, '/admin/api/rooms');
export const room = (token, code) => call(token, `/admin/api/rooms/${encodeURIComponent(code)}`);
export const lock = (token, code, locked) => call(token, `/admin/api/rooms/${encodeURIComponent(code)}/${locked ? 'lock' : 'unlock'}`, 'POST');
export const close = (token, code) => call(token, `/admin/api/rooms/${encodeURIComponent(code)}/close`, 'POST');
export const remove = (token, code, member) =>
  call(token, `/admin/api/rooms/${encodeURIComponent(code)}/members/${encodeURIComponent(member)}/remove`, 'POST');

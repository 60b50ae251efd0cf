// One room's panel: its members (each with Remove), Lock/Unlock, Close and its state as JSON. Every action asks
// for confirmation first, then says how it went.

import * as api from './api.js';
import { gameName } from './games.js';

/** Asks `message` in the confirmation dialog; resolves to whether the operator confirmed. */
export function confirmAction(dialog, { title, message, ok }) {
  dialog.querySelector('#confirm-title').textContent = title;
  dialog.querySelector('#confirm-message').textContent = message;
  dialog.querySelector('#confirm-ok').textContent = ok;
  dialog.returnValue = '';
  dialog.showModal();
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => resolve(dialog.returnValue === 'ok'), { once: true });
  });
}

export function createRoomPanel({ dialog, confirm, getToken, onUnauthorized, onChanged }) {
  const $ = (id) => dialog.querySelector(`#${id}`);
  let code = null;
  let view = null;

  function showError(error) {
    if (error instanceof api.Unauthorized) {
      dialog.close();
      onUnauthorized();
      return;
    }
    $('panel-error').textContent = error.message;
    $('panel-error').hidden = false;
  }

  function draw() {
    $('panel-title').textContent = `Room ${code}`;
    if (!view) return;
    const people = view.members.length;
    $('panel-summary').textContent = `${gameName(view.game)} · ${view.status} · `
      + `${people} member${people === 1 ? '' : 's'} · ${view.moves} moves · seq ${view.seq}`
      + `${view.locked ? ' · locked' : ''}${view.public ? '' : ' · private'}`;
    $('panel-lock').textContent = view.locked ? 'Unlock' : 'Lock';
    $('panel-lock').dataset.locked = String(view.locked);
    $('panel-members').replaceChildren(...view.members.map((member) => {
      const li = document.createElement('li');
      li.dataset.member = member.id;
      const name = document.createElement('span');
      name.className = 'member-name';
      const roles = [member.host ? 'host' : null, member.spectator ? 'watching' : null, member.connected ? null : 'away']
        .filter(Boolean);
      name.textContent = `${member.name} (${member.id}${roles.length ? `, ${roles.join(', ')}` : ''})`;
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'button small danger';
      button.textContent = 'Remove';
      button.addEventListener('click', () => removeMember(member));
      li.append(name, button);
      return li;
    }));
    if (!view.members.length) {
      const li = document.createElement('li');
      li.className = 'muted';
      li.textContent = 'Nobody is in this room.';
      $('panel-members').append(li);
    }
    $('panel-state').textContent = JSON.stringify(view.state, null, 2);
  }

  async function refresh() {
    $('panel-error').hidden = true;
    try {
      view = await api.room(getToken(), code);
      draw();
    } catch (error) {
      view = null;
      showError(error);
    }
  }

  async function act(question, action) {
    if (!(await confirmAction(confirm, question))) return false;
    $('panel-error').hidden = true;
    try {
      await action();
      onChanged();
      return true;
    } catch (error) {
      showError(error);
      return false;
    }
  }

  async function removeMember(member) {
    const done = await act({ title: `Remove ${member.name}?`, ok: 'Remove',
      message: `${member.name} leaves room ${code} and cannot come back from that browser (the host can lift the ban).` },
    () => api.remove(getToken(), code, member.id));
    if (done) await refresh();
  }

  $('panel-lock').addEventListener('click', async () => {
    const locking = !view?.locked;
    const done = await act(locking
      ? { title: `Lock room ${code}?`, ok: 'Lock', message: 'Nobody new can join; members who dropped can still come back.' }
      : { title: `Unlock room ${code}?`, ok: 'Unlock', message: 'Anyone with the code can join again.' },
    () => api.lock(getToken(), code, locking));
    if (done) await refresh();
  });
  $('panel-close-room').addEventListener('click', async () => {
    const done = await act({ title: `Close room ${code}?`, ok: 'Close room',
      message: 'Everyone in it is sent back to the lobby with "Room closed", and the room and its game are gone.' },
    () => api.close(getToken(), code));
    if (done) dialog.close();
  });
  $('panel-refresh').addEventListener('click', refresh);
  $('panel-close').addEventListener('click', () => dialog.close());

  return {
    async open(roomCode) {
      code = roomCode;
      view = null;
      $('panel-summary').textContent = 'Loading…';
      $('panel-members').replaceChildren();
      $('panel-state').textContent = '';
      draw();
      if (!dialog.open) dialog.showModal();
      await refresh();
    },
  };
}

// Who is in the room: connection dot, name, host and spectator badges; the host can hand hosting over or remove
// someone (removal asks for a second click), lock the room, and let removed players back in. While this page is
// offline nobody's status is known, so every member is shown greyed with "status unknown".

import { h, icon, setText, show, syncList, plural } from './dom.js';
import { isHost, CONNECTION } from '../core/store.js';
import { presence, UNKNOWN_STATUS_TITLE } from '../core/room-format.js';

const CONFIRM_SECONDS = 4;

export function createMembersView(actions) {
  const count = h('span', { class: 'muted small' });
  const lockedBadge = h('span', { class: 'badge badge-locked', id: 'locked-badge', title: 'Nobody new can join this room', hidden: true }, icon('lock', 13), 'Locked');
  const list = h('ul', { class: 'member-list', id: 'member-list' });
  const offlineNote = h('p', { class: 'member-note', id: 'members-offline-note', role: 'status', hidden: true }, icon('wifi', 15), UNKNOWN_STATUS_TITLE);

  const lockLabel = h('span', { class: 'switch-label', id: 'lock-room-label', text: 'Lock room' });
  const lockHint = h('span', { class: 'switch-hint', id: 'lock-room-hint', text: 'Nobody new can join. People already here can come back.' });
  const lockSwitch = h('button', {
    type: 'button', class: 'switch', id: 'lock-room', role: 'switch', 'aria-checked': 'false',
    'aria-labelledby': 'lock-room-label', 'aria-describedby': 'lock-room-hint',
  }, h('span', { class: 'switch-thumb', 'aria-hidden': 'true' }));
  const banList = h('ul', { class: 'ban-list', id: 'ban-list', 'aria-labelledby': 'bans-heading' });
  const bansBox = h('div', { class: 'bans', id: 'removed-players', hidden: true },
    h('h3', { class: 'bans-heading', id: 'bans-heading', text: 'Removed players' }), banList);
  const hostTools = h('div', { class: 'host-room-tools', id: 'host-room-tools', hidden: true },
    h('div', { class: 'switch-row' }, h('div', { class: 'switch-text' }, lockLabel, lockHint), lockSwitch), bansBox);

  const element = h('section', { class: 'card side-card', id: 'members-card', 'aria-labelledby': 'members-heading' },
    h('div', { class: 'card-header' }, h('div', { class: 'card-title-row' }, h('h2', { id: 'members-heading', text: 'People' }), lockedBadge), count),
    list, offlineNote, hostTools);
  let armed = null;
  let armTimer = null;
  let current = null;
  let live = false;

  function disarm() {
    armed = null;
    clearTimeout(armTimer);
    if (current) render(current);
  }

  list.addEventListener('click', (event) => {
    const button = event.target.closest('button[data-action]');
    if (!button || button.disabled) return;
    const id = button.dataset.member;
    if (button.dataset.action === 'host') actions.makeHost(id);
    if (button.dataset.action === 'kick') {
      if (armed === id) {
        actions.kick(id);
        disarm();
        return;
      }
      armed = id;
      clearTimeout(armTimer);
      armTimer = setTimeout(disarm, CONFIRM_SECONDS * 1000);
      render(current);
    }
  });
  lockSwitch.addEventListener('click', () => {
    if (!current || lockSwitch.disabled) return;
    actions.lockRoom(!current.room.state.locked);
  });
  banList.addEventListener('click', (event) => {
    const button = event.target.closest('button[data-ban]');
    if (button && !button.disabled) actions.unban(button.dataset.ban);
  });

  function renderHostTools(state) {
    const roomState = state.room.state;
    const hosting = isHost(state);
    show(hostTools, hosting);
    const locked = roomState.locked === true;
    show(lockedBadge, locked);
    if (!hosting) return;
    lockSwitch.setAttribute('aria-checked', String(locked));
    lockSwitch.disabled = !live;
    setText(lockLabel, locked ? 'Room locked' : 'Lock room');
    setText(lockHint, locked ? 'Nobody new can join. People already here can come back.' : 'Anyone with the link or code can join.');
    const bans = Array.isArray(roomState.bans) ? roomState.bans : [];
    show(bansBox, bans.length > 0);
    syncList(banList, bans, (ban) => ban.id, () => h('li', { class: 'ban' }, h('span', { class: 'ban-name' }),
      h('button', { type: 'button', class: 'button button-tiny button-allow' }, 'Allow back')),
    (item, ban) => {
      setText(item.querySelector('.ban-name'), ban.name);
      const button = item.querySelector('button');
      button.dataset.ban = ban.id;
      button.setAttribute('aria-label', `Allow ${ban.name} back into the room`);
      button.disabled = !live;
    });
  }

  function render(state) {
    const roomState = state.room.state;
    const hosting = isHost(state);
    const online = state.connection.status === CONNECTION.ONLINE;
    const players = roomState.members.filter((member) => member.role === 'player').length;
    const watching = roomState.members.length - players;
    setText(count, `${plural(players, 'player')}${watching ? `, ${watching} watching` : ''}`);
    show(offlineNote, !online);
    element.classList.toggle('is-offline', !online);
    syncList(list, roomState.members, (member) => member.id, () => {
      const name = h('span', { class: 'member-name' });
      const badges = h('span', { class: 'member-badges' });
      const tools = h('span', { class: 'member-tools' });
      const item = h('li', { class: 'member' }, h('span', { class: 'dot', 'aria-hidden': 'true' }), name, badges, tools);
      item.parts = { name, badges, tools };
      return item;
    }, (item, member) => {
      const { name, badges, tools } = item.parts;
      const you = member.id === state.room.you;
      const seen = presence(member, online);
      item.querySelector('.dot').dataset.connected = seen.state === 'unknown' ? 'unknown' : String(member.connected);
      setText(name, `${member.name}${you ? ' (you)' : ''}`);
      item.title = seen.title;
      item.dataset.presence = seen.state;
      item.classList.toggle('is-away', seen.state === 'away');
      item.classList.toggle('is-unknown', seen.state === 'unknown');
      const badgeList = [];
      if (member.id === roomState.host) badgeList.push(h('span', { class: 'badge badge-host' }, icon('crown', 13), 'Host'));
      if (member.role === 'spectator') badgeList.push(h('span', { class: 'badge badge-muted' }, icon('eye', 13), 'Watching'));
      if (seen.spoken) badgeList.push(h('span', { class: 'visually-hidden', text: seen.spoken }));
      const badgeKey = badgeList.map((badge) => badge.textContent).join('|');
      if (badges.dataset.key !== badgeKey) {
        badges.replaceChildren(...badgeList);
        badges.dataset.key = badgeKey;
      }
      const showTools = hosting && !you;
      const toolKey = showTools ? `${member.role}|${armed === member.id}|${live}` : '';
      if (tools.dataset.key !== toolKey) {
        tools.dataset.key = toolKey;
        const buttons = [];
        if (showTools && member.role === 'player') {
          buttons.push(h('button', { type: 'button', class: 'button button-tiny', dataset: { action: 'host', member: member.id }, 'aria-label': `Make ${member.name} the host`, text: 'Make host', disabled: !live }));
        }
        if (showTools) {
          const confirming = armed === member.id;
          buttons.push(h('button', {
            type: 'button', class: ['button button-tiny button-danger', confirming && 'is-armed'], dataset: { action: 'kick', member: member.id },
            'aria-label': confirming ? `Confirm: remove ${member.name}` : `Remove ${member.name}`, text: confirming ? 'Sure?' : 'Remove', disabled: !live,
          }));
        }
        const focused = tools.contains(document.activeElement) ? document.activeElement.dataset.action : null;
        tools.replaceChildren(...buttons);
        if (focused) tools.querySelector(`[data-action="${focused}"]`)?.focus();
      }
    });
    renderHostTools(state);
  }

  return {
    element,
    update(state, previous, context) {
      const roomState = state.room.state;
      const before = current;
      live = Boolean(context?.live);
      const changed = !before || before.room.state.members !== roomState.members || before.room.state.host !== roomState.host
        || before.room.state.locked !== roomState.locked || before.room.state.bans !== roomState.bans
        || before.connection.status !== state.connection.status || before.room.you !== state.room.you
        || element.dataset.live !== String(live);
      current = state;
      element.dataset.live = String(live);
      if (changed) render(state);
    },
  };
}

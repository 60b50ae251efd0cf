// Who is in the room: connection dot, name, host and spectator badges; the host can hand hosting over or remove
// someone (removal asks for a second click).

import { h, icon, setText, syncList, plural } from './dom.js';
import { isHost } from '../core/store.js';

const CONFIRM_SECONDS = 4;

export function createMembersView(actions) {
  const count = h('span', { class: 'muted small' });
  const list = h('ul', { class: 'member-list', id: 'member-list' });
  const element = h('section', { class: 'card side-card', 'aria-labelledby': 'members-heading' },
    h('div', { class: 'card-header' }, h('h2', { id: 'members-heading', text: 'People' }), count), list);
  let armed = null;
  let armTimer = null;
  let current = null;

  function disarm() {
    armed = null;
    clearTimeout(armTimer);
    if (current) render(current);
  }

  list.addEventListener('click', (event) => {
    const button = event.target.closest('button[data-action]');
    if (!button) return;
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

  function render(state) {
    const roomState = state.room.state;
    const hosting = isHost(state);
    const players = roomState.members.filter((member) => member.role === 'player').length;
    const watching = roomState.members.length - players;
    setText(count, `${plural(players, 'player')}${watching ? `, ${watching} watching` : ''}`);
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
      item.querySelector('.dot').dataset.connected = String(member.connected);
      setText(name, `${member.name}${you ? ' (you)' : ''}`);
      item.title = member.connected ? `${member.name} is here` : `${member.name} is away`;
      item.classList.toggle('is-away', !member.connected);
      const badgeList = [];
      if (member.id === roomState.host) badgeList.push(h('span', { class: 'badge badge-host' }, icon('crown', 13), 'Host'));
      if (member.role === 'spectator') badgeList.push(h('span', { class: 'badge badge-muted' }, icon('eye', 13), 'Watching'));
      if (!member.connected) badgeList.push(h('span', { class: 'visually-hidden', text: ', away' }));
      const badgeKey = badgeList.map((badge) => badge.textContent).join('|');
      if (badges.dataset.key !== badgeKey) {
        badges.replaceChildren(...badgeList);
        badges.dataset.key = badgeKey;
      }
      const showTools = hosting && !you;
      const toolKey = showTools ? `${member.role}|${armed === member.id}` : '';
      if (tools.dataset.key !== toolKey) {
        tools.dataset.key = toolKey;
        const buttons = [];
        if (showTools && member.role === 'player') {
          buttons.push(h('button', { type: 'button', class: 'button button-tiny', dataset: { action: 'host', member: member.id }, 'aria-label': `Make ${member.name} the host`, text: 'Make host' }));
        }
        if (showTools) {
          const confirming = armed === member.id;
          buttons.push(h('button', {
            type: 'button', class: ['button button-tiny button-danger', confirming && 'is-armed'], dataset: { action: 'kick', member: member.id },
            'aria-label': confirming ? `Confirm: remove ${member.name}` : `Remove ${member.name}`, text: confirming ? 'Sure?' : 'Remove',
          }));
        }
        const focused = tools.contains(document.activeElement) ? document.activeElement.dataset.action : null;
        tools.replaceChildren(...buttons);
        if (focused) tools.querySelector(`[data-action="${focused}"]`)?.focus();
      }
    });
  }

  return {
    element,
    update(state, previous) {
      const changed = !current || current.room.state.members !== state.room.state.members || current.room.state.host !== state.room.state.host;
      current = state;
      if (changed) render(state);
    },
  };
}

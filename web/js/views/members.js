// Who is in the room: connection dot, name, host and spectator badges; the host can hand hosting over, seat a
// spectator or move a player to the spectators, remove someone (removal asks for a second click), lock the room,
// and let removed players back in. Everyone can rename themselves; a spectator takes a free seat between games
// and a player can move to the spectators. Reactions show for a moment over the sender's name. While this page
// is offline nobody's status is known, so every member is shown greyed with "status unknown".

import { h, s, icon, setText, setTextWithNames, show, syncList, plural } from './dom.js';
import { isHost, CONNECTION } from '../core/store.js';
import { presence, UNKNOWN_STATUS_TITLE } from '../core/room-format.js';
import { NAME_INPUT_MAX_LENGTH } from '../core/game-settings.js';
import { createReactionBubbles } from './reactions.js';
import { createSwitch } from './switch.js';
import { gameById, gamePart, memberBadges } from '../core/game-registry.js';

const CONFIRM_SECONDS = 4;
/** The moves whose refusals this card shows in place. */
const SHOWN_MOVES = new Set(['seat', 'rename']);

/** `waiting`, `playing` or `finished`: the room state's `status` (PROTOCOL.md, "The room state"). */
export function roomStatus(roomState) {
  return ['waiting', 'playing', 'finished'].includes(roomState?.status) ? roomState.status : 'waiting';
}

function pencilIcon() {
  return s('svg', { class: 'icon icon-pencil', width: 15, height: 15, viewBox: '0 0 24 24', 'aria-hidden': 'true', focusable: 'false' },
    s('path', { d: 'M4 20h4L19 9a2.8 2.8 0 0 0-4-4L4 16z' }), s('path', { d: 'M13.5 6.5l4 4' }));
}

/** The form that renames you, shown in place of your name. */
function createRenameForm(actions, { onDone }) {
  const input = h('input', {
    class: 'input input-small', id: 'rename-input', type: 'text', maxlength: String(NAME_INPUT_MAX_LENGTH), autocomplete: 'nickname',
    spellcheck: 'false', 'aria-label': 'Your new name', 'aria-describedby': 'rename-error',
  });
  const save = h('button', { type: 'submit', class: 'button button-tiny button-primary', text: 'Save' });
  const cancel = h('button', { type: 'button', class: 'button button-tiny', text: 'Cancel' });
  const error = h('p', { class: 'field-error rename-error', id: 'rename-error', role: 'alert' });
  const element = h('form', { class: 'rename-form', id: 'rename-form', novalidate: true }, h('div', { class: 'rename-row' }, input, save, cancel), error);
  function showError(text) {
    setText(error, text ?? '');
    if (text) input.setAttribute('aria-invalid', 'true');
    else input.removeAttribute('aria-invalid');
  }
  let attempted = '';
  element.addEventListener('submit', (event) => {
    event.preventDefault();
    attempted = input.value;
    const problem = actions.rename(input.value);
    showError(problem);
    if (problem) input.focus();
    else onDone(true);
  });
  cancel.addEventListener('click', () => onDone(false));
  element.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onDone(false);
    }
  });
  input.addEventListener('input', () => showError(''));
  return {
    element,
    open(name) {
      input.value = name;
      showError('');
      queueMicrotask(() => {
        input.focus();
        input.select();
      });
    },
    showError,
    /** The name last sent, to type over when the server refuses it. */
    get attempted() {
      return attempted;
    },
  };
}

export function createMembersView(actions) {
  const count = h('span', { class: 'muted small' });
  const lockedBadge = h('span', { class: 'badge badge-locked', id: 'locked-badge', title: 'Nobody new can join this room', hidden: true }, icon('lock', 13), 'Locked');
  const list = h('ul', { class: 'member-list', id: 'member-list' });
  const offlineNote = h('p', { class: 'member-note', id: 'members-offline-note', role: 'status', hidden: true }, icon('wifi', 15), UNKNOWN_STATUS_TITLE);

  const lock = createSwitch({
    id: 'lock-room', label: 'Lock room', hint: 'Nobody new can join. People already here can come back.', checked: false,
  });
  const { button: lockSwitch, label: lockLabel, hint: lockHint } = lock;
  const banList = h('ul', { class: 'ban-list', id: 'ban-list', 'aria-labelledby': 'bans-heading' });
  const bansBox = h('div', { class: 'bans', id: 'removed-players', hidden: true },
    h('h3', { class: 'bans-heading', id: 'bans-heading', text: 'Removed players' }), banList);
  const hostTools = h('div', { class: 'host-room-tools', id: 'host-room-tools', hidden: true },
    lock.row, bansBox);

  const seatNote = h('p', { class: 'member-note seat-note', id: 'seat-note', hidden: true });
  const cardError = h('p', { class: 'field-error members-error', id: 'members-error', role: 'alert' });
  let renaming = false;
  const renameForm = createRenameForm(actions, {
    onDone: (sent) => {
      renaming = false;
      if (current) render(current);
      if (!sent) list.querySelector('[data-action="rename"]')?.focus();
    },
  });
  // Bubbles go to every anchor on the page: these rows, and any scoreboard row marked `data-reaction-for`.
  const bubbles = createReactionBubbles({ root: list.ownerDocument ?? list });
  const element = h('section', { class: 'card side-card', id: 'members-card', 'aria-labelledby': 'members-heading' },
    h('div', { class: 'card-header' }, h('div', { class: 'card-title-row' }, h('h2', { id: 'members-heading', text: 'People' }), lockedBadge), count),
    list, seatNote, cardError, offlineNote, hostTools, bubbles.element);
  let armed = null;
  let armTimer = null;
  let current = null;
  let live = false;
  let shownErrorId = null;

  function disarm() {
    armed = null;
    clearTimeout(armTimer);
    if (current) render(current);
  }

  list.addEventListener('click', (event) => {
    const button = event.target.closest('button[data-action]');
    if (!button || button.disabled) return;
    const id = button.dataset.member;
    const action = button.dataset.action;
    setText(cardError, '');
    if (action === 'host') actions.makeHost(id);
    if (action === 'play') actions.seat('player', id === current?.room.you ? undefined : id);
    if (action === 'rename') {
      renaming = true;
      render(current);
      renameForm.open(current.room.state.members.find((member) => member.id === id)?.name ?? '');
    }
    // Removing someone, or moving a player (yourself too) to the spectators, asks for a second click.
    if (action === 'kick' || action === 'watch') {
      const key = `${action}:${id}`;
      if (armed === key) {
        if (action === 'kick') actions.kick(id);
        else actions.seat('spectator', id === current?.room.you ? undefined : id);
        disarm();
        return;
      }
      armed = key;
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
    // A private room opens by its link only (its key is in it); a public one by its code too.
    const open = state.room.key ? 'Anyone with the link can join.' : 'Anyone with the link or code can join.';
    setText(lockHint, locked ? 'Nobody new can join. People already here can come back.' : open);
    const bans = Array.isArray(roomState.bans) ? roomState.bans : [];
    show(bansBox, bans.length > 0);
    syncList(banList, bans, (ban) => ban.id, () => h('li', { class: 'ban' }, h('span', { class: 'ban-name' }),
      h('button', { type: 'button', class: 'button button-tiny button-allow' }, 'Allow back')),
    (item, ban) => {
      setTextWithNames(item.querySelector('.ban-name'), ban.name, [ban.name]);
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
    const status = roomStatus(roomState);
    const you = roomState.members.find((member) => member.id === state.room.you);
    // A spectator takes a seat themselves only between games; say so instead of offering a refused button.
    const seatBlocked = you?.role === 'spectator' && status === 'playing' && !hosting;
    show(seatNote, seatBlocked);
    setText(seatNote, seatBlocked ? 'You can take a seat when this game is over.' : '');
    syncList(list, roomState.members, (member) => member.id, () => {
      const name = h('span', { class: 'member-name' });
      const badges = h('span', { class: 'member-badges' });
      const tools = h('span', { class: 'member-tools' });
      const who = h('span', { class: 'member-who' }, name, badges);
      const item = h('li', { class: 'member' }, h('span', { class: 'dot', 'aria-hidden': 'true' }), who, tools);
      item.parts = { name, badges, tools, who };
      return item;
    }, (item, member) => {
      const { name, badges, tools, who } = item.parts;
      const mine = member.id === state.room.you;
      const seen = presence(member, online);
      // Reactions float just after the name and badges.
      who.dataset.reactionFor = member.id;
      item.querySelector('.dot').dataset.connected = seen.state === 'unknown' ? 'unknown' : String(member.connected);
      setTextWithNames(name, `${member.name}${mine ? ' (you)' : ''}`, [member.name]);
      item.title = seen.title;
      item.dataset.presence = seen.state;
      item.classList.toggle('is-away', seen.state === 'away');
      item.classList.toggle('is-unknown', seen.state === 'unknown');
      item.classList.toggle('is-you', mine);
      const editing = mine && renaming;
      item.classList.toggle('is-renaming', editing);
      if (editing && renameForm.element.parentNode !== item) item.insertBefore(renameForm.element, tools);
      if (!editing && renameForm.element.parentNode === item) renameForm.element.remove();
      show(who, !editing);
      const badgeList = [];
      if (member.id === roomState.host) badgeList.push(h('span', { class: 'badge badge-host' }, icon('crown', 13), 'Host'));
      if (member.role === 'spectator') badgeList.push(h('span', { class: 'badge badge-muted' }, icon('eye', 13), 'Watching'));
      for (const text of memberBadges(roomState, member)) badgeList.push(h('span', { class: 'badge badge-muted', dataset: { gameBadge: '' }, text }));
      if (seen.spoken) badgeList.push(h('span', { class: 'visually-hidden', text: seen.spoken }));
      const badgeKey = badgeList.map((badge) => badge.textContent).join('|');
      if (badges.dataset.key !== badgeKey) {
        badges.replaceChildren(...badgeList);
        badges.dataset.key = badgeKey;
      }
      const showTools = hosting && !mine;
      const isHostRow = member.id === roomState.host;
      const toolKey = `${member.role}|${showTools}|${mine}|${editing}|${armed}|${live}|${status}|${isHostRow}`;
      if (tools.dataset.key !== toolKey) {
        tools.dataset.key = toolKey;
        const buttons = [];
        const armedHere = (action) => armed === `${action}:${member.id}`;
        const watchButton = (label, spoken) => h('button', {
          type: 'button', class: ['button button-tiny button-danger', armedHere('watch') && 'is-armed'], dataset: { action: 'watch', member: member.id },
          'aria-label': armedHere('watch') ? `Confirm: ${spoken}` : spoken, text: armedHere('watch') ? 'Sure?' : label, disabled: !live,
        });
        if (mine && !editing) {
          buttons.push(h('button', {
            type: 'button', class: 'button button-tiny button-icon', dataset: { action: 'rename', member: member.id },
            'aria-label': 'Change your name', title: 'Change your name', disabled: !live,
          }, pencilIcon()));
          if (member.role === 'spectator' && !seatBlocked) {
            buttons.push(h('button', { type: 'button', class: 'button button-tiny button-play', dataset: { action: 'play', member: member.id }, text: 'Take a seat', disabled: !live }));
          }
          if (member.role === 'player' && !isHostRow) buttons.push(watchButton('Just watch', 'Move to the spectators'));
        }
        // Seat changes first, then Make host right before Remove (keyboard order: Make host, then Remove).
        if (showTools && member.role === 'player') {
          if (!isHostRow) buttons.push(watchButton('Move to spectators', `Move ${member.name} to the spectators`));
          buttons.push(h('button', { type: 'button', class: 'button button-tiny', dataset: { action: 'host', member: member.id }, 'aria-label': `Make ${member.name} the host`, text: 'Make host', disabled: !live }));
        }
        if (showTools && member.role === 'spectator') {
          buttons.push(h('button', { type: 'button', class: 'button button-tiny button-play', dataset: { action: 'play', member: member.id }, 'aria-label': `Let ${member.name} play`, text: 'Let play', disabled: !live }));
        }
        if (showTools) {
          const confirming = armedHere('kick');
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
        || element.dataset.live !== String(live) || roomStatus(before.room.state) !== roomStatus(roomState)
        // A game with badges beside names redraws the list when its part changes; the others never need to.
        || (Boolean(gameById(roomState.game)?.memberBadges) && gamePart(before.room.state) !== gamePart(roomState));
      current = state;
      element.dataset.live = String(live);
      if (changed) render(state);
      bubbles.update(state);
      const notice = state.notice;
      if (notice && SHOWN_MOVES.has(notice.move) && notice.id !== shownErrorId) {
        shownErrorId = notice.id;
        const text = `${notice.title}: ${notice.message}`;
        if (notice.move === 'rename') {
          // The server refused the new name: open the field again with it and the reason.
          if (!renaming) {
            renaming = true;
            render(state);
            renameForm.open(renameForm.attempted);
          }
          queueMicrotask(() => renameForm.showError(text));
        } else {
          setText(cardError, text);
        }
      } else if (before && before.room.state.members !== roomState.members) {
        setText(cardError, '');
      }
    },
  };
}

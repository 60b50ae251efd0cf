// The waiting room: what a new room shows everyone in it until the host starts the first game (the room's
// `status` is `waiting`). The code, the link and its QR code to bring friends in, the players arriving live, and
// the host's Start button (`new_game`); everyone else reads who they are waiting for.

import { h, plural, setText, setTextWithNames, show, syncList } from './dom.js';
import { isHost, me } from '../core/store.js';
import { createSharePanel } from './share-sheet.js';
import { gameById, gamePart } from '../core/game-registry.js';

/** A name's first character (a whole emoji too) for the round badge beside it. */
function initial(name) {
  return [...String(name ?? '?').trim()][0]?.toUpperCase() ?? '?';
}

export function createWaitingRoom(actions) {
  const eyebrow = h('p', { class: 'eyebrow', id: 'waiting-eyebrow' });
  const title = h('h2', { class: 'waiting-title', id: 'waiting-title', text: 'Waiting for players' });
  const share = createSharePanel(actions, { prefix: 'waiting' });
  const count = h('span', { class: 'badge badge-muted', id: 'waiting-count' });
  const players = h('ul', { class: 'arrivals', id: 'waiting-players', 'aria-live': 'polite', 'aria-labelledby': 'waiting-players-title' });
  const watchers = h('p', { class: 'muted small', id: 'waiting-watchers' });
  const start = h('button', { type: 'button', class: 'button button-primary button-large', id: 'waiting-start' });
  const waitingFor = h('p', { class: 'waiting-note', id: 'waiting-for-host' });
  const hint = h('p', { class: 'muted small', id: 'waiting-hint' });
  const element = h('section', { class: 'card waiting-room', id: 'waiting-room', 'aria-labelledby': 'waiting-title' },
    h('div', { class: 'waiting-head' }, eyebrow, title),
    share.element,
    h('div', { class: 'waiting-people' },
      h('div', { class: 'card-header' }, h('h3', { id: 'waiting-players-title', text: 'Players here' }), count),
      players, watchers),
    // On a phone Start (or whom we wait for) stays pinned at the bottom of the screen (app.css).
    h('div', { class: 'waiting-actions' }, start, waitingFor, hint));

  let live = false;
  start.addEventListener('click', () => {
    if (live) actions.newGame();
  });

  return {
    element,
    update(state, previous, context) {
      live = context.live;
      const roomState = state.room.state;
      const game = gameById(roomState.game);
      setText(eyebrow, `${game?.name ?? roomState.game} · waiting room`);
      share.update(state);
      const seated = roomState.members.filter((member) => member.role === 'player');
      const watching = roomState.members.filter((member) => member.role === 'spectator');
      setText(count, plural(seated.length, 'player'));
      syncList(players, seated, (member) => member.id, () => h('li', { class: 'arrival' },
        h('span', { class: 'arrival-badge', 'aria-hidden': 'true' }), h('span', { class: 'arrival-name' }), h('span', { class: 'arrival-tag' })),
      (item, member) => {
        setText(item.querySelector('.arrival-badge'), initial(member.name));
        const you = member.id === state.room.you;
        setTextWithNames(item.querySelector('.arrival-name'), `${member.name}${you ? ' (you)' : ''}`, [member.name]);
        setText(item.querySelector('.arrival-tag'), member.id === roomState.host ? 'host' : member.connected ? '' : 'away');
        item.dataset.host = String(member.id === roomState.host);
        item.dataset.connected = String(member.connected);
        // Reactions (reactions.js) float over the sender's name here too.
        item.dataset.reactionFor = member.id;
      });
      setTextWithNames(watchers, watching.length ? `Watching: ${watching.map((member) => member.name).join(', ')}` : '', watching.map((member) => member.name));
      show(watchers, watching.length > 0);

      const hosting = isHost(state);
      setText(title, hosting ? 'Invite your friends' : 'You are in!');
      const part = gamePart(roomState) ?? {};
      const canStart = part.canStartNext !== false;
      const hostName = roomState.members.find((member) => member.id === roomState.host)?.name ?? 'the host';
      setText(start, `Start the ${game?.unit ?? 'game'}`);
      show(start, hosting);
      start.disabled = !(hosting && live && canStart);
      setTextWithNames(waitingFor, hosting ? '' : `Waiting for ${hostName} to start`, [hostName]);
      show(waitingFor, !hosting);
      const alone = seated.length < 2;
      setText(hint, hosting
        ? (alone ? 'Share the code or the QR code; start whenever everyone is in.' : 'Everyone in? Start when you are ready.')
        : me(state)?.role === 'spectator' ? 'You are watching: the game shows here once it starts.' : 'The game starts here for everyone at once.');
    },
  };
}

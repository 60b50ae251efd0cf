// A Word Scramble room's game: the root word, the round timer, the word input with the server's refusals in a
// banner, the words found (newest first), the scoreboard, the missed words between rounds, the final standings,
// and the host's Start match button.

import { h, clock, icon, setText, show, syncList, plural } from './dom.js';
import { isHost, me, serverNow, CONNECTION } from '../core/store.js';
import { foundEmptyText, foundHeading, presence, scrambleStatusLine, wordPlaceholder } from '../core/room-format.js';
import { createGameFrame } from './game-frame.js';

const TIMER_TICK_MS = 250;
const URGENT_SECONDS = 10;

function foundItem() {
  return h('li', { class: 'found-word' },
    h('span', { class: 'found-text' }), h('span', { class: 'length-badge' }), h('span', { class: 'found-by' }), h('span', { class: 'found-points' }));
}

function updateFoundItem(you) {
  return (item, found) => {
    setText(item.querySelector('.found-text'), found.word);
    const badge = item.querySelector('.length-badge');
    setText(badge, String(found.length));
    badge.setAttribute('aria-label', `${found.length} letters`);
    badge.dataset.length = String(Math.min(found.length, 8));
    setText(item.querySelector('.found-by'), found.player === you ? 'you' : found.name);
    setText(item.querySelector('.found-points'), `+${found.points}`);
    item.classList.toggle('is-mine', found.player === you);
  };
}

function scoreboardItem() {
  return h('li', { class: 'score-line' }, h('span', { class: 'rank' }), h('span', { class: 'dot', 'aria-hidden': 'true' }), h('span', { class: 'score-name' }), h('span', { class: 'score-value' }));
}

export function createScrambleView(actions) {
  const roundLabel = h('p', { class: 'eyebrow', id: 'round-label' });
  const root = h('h2', { class: 'root-word', id: 'root-word' });
  const timer = h('div', { class: 'round-timer', id: 'round-timer', role: 'timer' }, icon('clock', 18), h('span', { class: 'timer-text' }));
  const timerBar = h('div', { class: 'timer-bar', 'aria-hidden': 'true' }, h('span', {}));
  const progress = h('p', { class: 'progress', id: 'words-progress' });
  const status = h('p', { class: 'status-line', id: 'status-line', role: 'status', 'aria-live': 'polite' });

  const input = h('input', {
    id: 'word-input', class: 'input input-word', type: 'text', autocomplete: 'off', autocapitalize: 'none', spellcheck: 'false',
    maxlength: '32', placeholder: 'Type a word and press Enter', 'aria-label': 'Your word', 'aria-describedby': 'word-error',
  });
  const submit = h('button', { type: 'submit', class: 'button button-primary', text: 'Submit' });
  const form = h('form', { class: 'word-form', novalidate: true }, h('div', { class: 'input-row' }, input, submit));
  const errorTitle = h('strong', {});
  const errorMessage = h('span', {});
  const errorClose = h('button', { type: 'button', class: 'icon-button', 'aria-label': 'Dismiss' }, icon('close', 16));
  const errorBanner = h('div', { class: 'error-banner', id: 'word-error', role: 'alert', hidden: true },
    icon('warning', 20), h('div', { class: 'error-body' }, errorTitle, errorMessage), errorClose);

  const startButton = h('button', { type: 'button', class: 'button button-primary button-large', id: 'start-match', text: 'Start match' });
  const waiting = h('p', { class: 'waiting-note', id: 'waiting-host' });
  const nextGame = h('div', { class: 'next-game' }, startButton, waiting);
  const phaseText = h('p', { class: 'muted' });
  const phasePanel = h('div', { class: 'phase-panel', id: 'phase-panel' }, phaseText);

  const foundList = h('ol', { class: 'found-list', id: 'found-list', 'aria-label': 'Words found, newest first' });
  const foundEmpty = h('p', { class: 'muted small found-empty', id: 'found-empty', text: 'No words yet — be the first!' });
  const foundTitle = h('h2', { id: 'found-title', text: 'Words found' });
  const missedList = h('ul', { class: 'missed-list', id: 'missed-list' });
  const missedTitle = h('h3', { class: 'card-subtitle' });
  const missedCard = h('section', { class: 'card missed-card', id: 'missed-card', 'aria-labelledby': 'missed-title', hidden: true }, missedTitle, missedList);
  missedTitle.id = 'missed-title';
  const lastFoundList = h('ol', { class: 'found-list compact', id: 'last-found-list' });

  const finalList = h('ol', { class: 'podium', id: 'final-scoreboard' });
  const finalCard = h('section', { class: 'card final-card', 'aria-labelledby': 'final-title', hidden: true },
    h('div', { class: 'card-header' }, h('h2', { id: 'final-title' }, icon('trophy', 20), ' Final standings')), finalList);
  const scoreList = h('ol', { class: 'score-list', id: 'scramble-scores' });

  const playArea = h('div', { class: 'play-area' }, form, errorBanner);
  const roundCard = h('section', { class: 'card round-card', 'aria-labelledby': 'root-word' },
    h('div', { class: 'round-top' }, roundLabel, timer),
    timerBar, root, status, playArea, phasePanel, nextGame);
  const foundCard = h('section', { class: 'card found-card', 'aria-labelledby': 'found-title' },
    h('div', { class: 'card-header' }, foundTitle, progress), foundEmpty, foundList);
  const element = h('div', { class: 'scramble-game' },
    roundCard, finalCard, missedCard,
    h('div', { class: 'scramble-columns' }, foundCard,
      h('section', { class: 'card', 'aria-labelledby': 'scoreboard-title' },
        h('div', { class: 'card-header' }, h('h2', { id: 'scoreboard-title', text: 'Scoreboard' })), scoreList)));

  let current = null;
  let live = false;
  let shownErrorId = null;
  let lastPhase = null;

  function canSubmit() {
    const game = current?.room?.state?.scramble;
    return Boolean(live && game?.phase === 'playing' && me(current)?.role === 'player');
  }

  function hideError() {
    show(errorBanner, false);
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const word = input.value.trim();
    if (!word || !canSubmit()) return;
    hideError();
    if (actions.submitWord(word)) input.value = '';
  });
  input.addEventListener('input', hideError);
  errorClose.addEventListener('click', () => {
    hideError();
    input.focus();
  });
  startButton.addEventListener('click', () => actions.newGame());

  function renderTimer() {
    const game = current?.room?.state?.scramble;
    const endsAt = game?.phaseEndsAt;
    const running = endsAt !== null && endsAt !== undefined && (game.phase === 'playing' || game.phase === 'intermission');
    show(timer, running);
    timerBar.hidden = !(running && game.phase === 'playing');
    if (!running) return;
    const left = Math.max(0, endsAt - serverNow(current.room, Date.now() / 1000));
    const text = game.phase === 'playing' ? clock(left) : `Next round in ${Math.ceil(left)} s`;
    setText(timer.querySelector('.timer-text'), text);
    timer.setAttribute('aria-label', game.phase === 'playing' ? `${Math.ceil(left)} seconds left in the round` : text);
    timer.classList.toggle('is-urgent', game.phase === 'playing' && left <= URGENT_SECONDS);
    const total = game.settings?.roundSeconds ?? 90;
    timerBar.firstElementChild.style.transform = `scaleX(${Math.min(1, left / total)})`;
    if (game.phase === 'intermission') renderFoundEmpty(game, left);
  }

  /** The empty found list says what fits the phase: be the first, nobody found one in the round just over. */
  function renderFoundEmpty(game, secondsLeft = null) {
    const intermission = game.phase === 'intermission' && game.lastRound;
    const round = intermission ? game.lastRound.number : game.round;
    const words = intermission ? game.lastRound.found : game.found;
    setText(foundEmpty, foundEmptyText(game.phase, round, secondsLeft));
    show(foundEmpty, words.length === 0 && game.phase !== 'lobby');
    setText(foundTitle, foundHeading(intermission ? 'intermission' : game.phase, round));
  }

  function renderRoot(word) {
    const letters = [...(word ?? '')];
    const key = letters.join('');
    if (root.dataset.word === key) return;
    root.dataset.word = key;
    root.setAttribute('aria-label', word ? `Root word: ${word}` : 'No root word yet');
    root.style.setProperty('--letters', String(Math.max(letters.length, 1)));
    root.replaceChildren(...letters.map((letter) => h('span', { class: 'root-letter', 'aria-hidden': 'true', text: letter })));
  }

  function render() {
    const state = current;
    const roomState = state.room.state;
    const game = roomState.scramble;
    const you = state.room.you;
    const hosting = isHost(state);
    const members = new Map(roomState.members.map((member) => [member.id, member]));

    roundCard.dataset.phase = game.phase;
    setText(roundLabel, game.phase === 'lobby' ? `${plural(game.nextSettings.rounds, 'round')} of ${game.nextSettings.roundSeconds} s` : `Round ${game.round} of ${game.rounds}`);
    renderRoot(game.phase === 'lobby' ? 'SCRAMBLE' : game.root);
    root.classList.toggle('is-placeholder', game.phase === 'lobby');
    setText(status, scrambleStatusLine(game, hosting));
    renderTimer();

    const playing = game.phase === 'playing';
    show(playArea, playing);
    let phaseMessage = '';
    if (game.phase === 'lobby') phaseMessage = `Find as many words as you can in eight letters: words of ${game.nextSettings.minWordLength}+ letters, each scoring its length for whoever finds it first.`;
    if (game.phase === 'finished') phaseMessage = 'Thanks for playing! Scroll down for the words nobody found.';
    setText(phaseText, phaseMessage);
    show(phasePanel, Boolean(phaseMessage));
    input.disabled = !canSubmit();
    submit.disabled = !canSubmit();
    const touch = typeof window.matchMedia === 'function' && window.matchMedia('(pointer: coarse)').matches;
    input.placeholder = wordPlaceholder({ touch, spectator: me(state)?.role === 'spectator', live });

    const canStart = game.canStartNext && (game.phase === 'lobby' || game.phase === 'finished');
    startButton.hidden = !(canStart && hosting);
    startButton.disabled = !(canStart && hosting && live);
    setText(startButton, game.phase === 'finished' ? 'Start a new match' : 'Start match');
    const hostName = members.get(roomState.host)?.name ?? 'the host';
    setText(waiting, canStart && !hosting ? `Waiting for ${hostName} (the host) to start the match.` : '');
    show(nextGame, !startButton.hidden || Boolean(waiting.textContent));

    const total = game.totalWords ?? 0;
    setText(progress, game.phase === 'lobby' ? '' : `${game.found.length} of ${total} found`);
    progress.setAttribute('aria-label', `${game.found.length} of ${plural(total, 'possible word')} found`);
    syncList(foundList, game.found, (found) => found.word, foundItem, updateFoundItem(you));
    const left = game.phaseEndsAt ? game.phaseEndsAt - serverNow(state.room, Date.now() / 1000) : null;
    renderFoundEmpty(game, game.phase === 'intermission' ? left : null);

    const board = game.scoreboard ?? [];
    const online = state.connection.status === CONNECTION.ONLINE;
    syncList(scoreList, board, (line) => line.player, scoreboardItem, (item, line) => {
      setText(item.querySelector('.rank'), String(line.rank));
      const member = members.get(line.player);
      const seen = presence(member ?? { name: line.name, connected: false }, online);
      item.querySelector('.dot').dataset.connected = seen.state === 'unknown' ? 'unknown' : String(Boolean(member?.connected));
      item.title = seen.title;
      setText(item.querySelector('.score-name'), `${line.name}${line.player === you ? ' (you)' : ''}`);
      setText(item.querySelector('.score-value'), String(line.score));
    });

    const last = game.lastRound;
    const showMissed = Boolean(last) && (game.phase === 'intermission' || game.phase === 'finished');
    show(missedCard, showMissed);
    if (showMissed) {
      setText(missedTitle, `Round ${last.number} (${last.root}): ${plural(last.missed.length, 'word')} nobody found`);
      syncList(missedList, last.missed, (word) => word, () => h('li', { class: 'missed-word' }), (item, word) => setText(item, word));
      missedList.dataset.empty = String(last.missed.length === 0);
    }
    if (game.phase === 'intermission' && last) {
      syncList(foundList, last.found, (found) => found.word, foundItem, updateFoundItem(you));
      setText(progress, `${last.found.length} of ${last.totalWords} found`);
    }

    const final = game.phase === 'finished' ? game.finalScoreboard : null;
    show(finalCard, Boolean(final));
    if (final) {
      syncList(finalList, final, (line) => line.player, () => h('li', { class: 'podium-line' },
        h('span', { class: 'medal' }), h('span', { class: 'score-name' }), h('span', { class: 'score-value' })),
      (item, line) => {
        const medal = item.querySelector('.medal');
        setText(medal, String(line.rank));
        medal.dataset.rank = String(Math.min(line.rank, 4));
        setText(item.querySelector('.score-name'), `${line.name}${line.player === you ? ' (you)' : ''}`);
        setText(item.querySelector('.score-value'), plural(line.score, 'point'));
      });
    }

    const notice = state.notice;
    if (notice?.move === 'word' && notice.id !== shownErrorId) {
      shownErrorId = notice.id;
      setText(errorTitle, notice.title);
      setText(errorMessage, notice.message);
      show(errorBanner, true);
    }
    if (game.phase !== lastPhase) {
      if (game.phase === 'playing') {
        hideError();
        input.value = '';
        if (!input.disabled) input.focus();
      }
      lastPhase = game.phase;
    }
  }

  const frame = createGameFrame({
    id: 'scramble', render, tick: renderTimer, tickMs: TIMER_TICK_MS,
    accept: (state, context) => { current = state; live = context.live; },
    ticking: (game) => game.phaseEndsAt !== null && (game.phase === 'playing' || game.phase === 'intermission'),
  });

  return { element, update: frame.update, destroy: frame.destroy };
}

/** Word Scramble, as the registry (games.js) lists it. Settings have the ranges of PROTOCOL.md. */
export const scramble = Object.freeze({
  id: 'scramble',
  name: 'Word Scramble',
  blurb: 'Race your friends to find words hidden in eight letters.',
  /** What a room plays one after another: "Next match". */
  unit: 'match',
  settings: Object.freeze([
    Object.freeze({ key: 'rounds', label: 'Rounds', min: 3, max: 20, step: 1, initial: 6 }),
    Object.freeze({ key: 'roundSeconds', label: 'Round length', min: 30, max: 300, step: 15, initial: 90, unit: 's' }),
    Object.freeze({ key: 'minWordLength', label: 'Shortest word', min: 3, max: 6, step: 1, initial: 3, unit: 'letters' }),
  ]),
  /** Its messages that the room state shows once applied (the controller resends them after a lost socket). */
  moves: Object.freeze(['word']),
  /** Whether `roomState` shows `message` (a `word`) found, this round or in the round just over. */
  moveArrived(roomState, message) {
    const word = String(message.word).trim().toLowerCase();
    const game = roomState.scramble;
    return Boolean(game?.found?.some((found) => found.word === word)
      || game?.lastRound?.found?.some((found) => found.word === word));
  },
  createView: createScrambleView,
});

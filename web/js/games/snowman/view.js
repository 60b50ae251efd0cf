// A Snowman room's game: the melting snowman, the word as letter boxes, whose turn it is (with a countdown and,
// for the host, Skip turn), the guess input and on-screen keyboard, this game's scores beside the room's
// leaderboard for the evening, and the host's New game button.
//
// Typing a letter anywhere on the page guesses it (unless a text field has focus); Enter starts the next game
// when the New game button is showing. On a phone the keyboard is laid out 7 keys a row in alphabetical order
// (snowman.css), so keys are big enough to tap, and the hint says "tap".

import { h, icon, isTyping, setText, setTextWithNames, show, syncList, plural } from '../../views/dom.js';
import { createSnowmanFigure } from './figure.js';
import { isHost, me, serverNow, CONNECTION } from '../../core/store.js';
import { ALPHABET, countdown as countdownOf, leaderboardRows, presence } from '../../core/room-format.js';
import { guessHint } from './game.js';
import { createGameFrame } from '../../views/game-frame.js';
import { createSnowmanHistoryView } from './history.js';
import { createPodium } from '../../views/podium.js';

const KEYBOARD_ROWS = ['QWERTYUIOP', 'ASDFGHJKL', 'ZXCVBNM'];
const COUNTDOWN_TICK_MS = 250;
/** Below this many seconds the turn countdown turns urgent. */
const URGENT_SECONDS = 10;
/** Touch screens (phones, tablets): the hint says tap, and the guess box (which would open the phone's own keyboard) is not focused. */
const TOUCH_QUERY = '(pointer: coarse)';

function memberName(roomState, id) {
  return roomState.members.find((member) => member.id === id)?.name
    ?? roomState.snowman.scores.find((line) => line.player === id)?.name ?? 'Someone';
}

/** Every name the room's lines may mention: its members' and those of the scores (players who left). */
function roomNames(roomState) {
  return [...roomState.members.map((member) => member.name), ...(roomState.snowman?.scores ?? []).map((line) => line.name)];
}

function touchScreen() {
  return typeof window.matchMedia === 'function' && window.matchMedia(TOUCH_QUERY).matches;
}

export function createSnowmanView(actions) {
  const figure = createSnowmanFigure();
  const pips = h('div', { class: 'pips', 'aria-hidden': 'true' });
  const wrongText = h('span', { class: 'wrong-text' });
  const status = h('p', { class: 'status-line', id: 'status-line', role: 'status', 'aria-live': 'polite' });
  const turn = h('div', { class: 'turn', id: 'turn' });
  const turnText = h('span', { class: 'turn-text' });
  const countdown = h('span', { class: 'countdown', id: 'turn-countdown', role: 'timer' });
  turn.append(turnText, countdown);
  const skip = h('button', { type: 'button', class: 'button button-small button-secondary', id: 'skip-turn', hidden: true }, icon('skip', 16), 'Skip turn');
  const turnRow = h('div', { class: 'turn-row' }, turn, skip);
  const word = h('div', { class: 'word', id: 'word', role: 'group', 'aria-label': 'The word' });
  const moveError = h('p', { class: 'move-error', id: 'guess-error', role: 'alert' });

  const guessInput = h('input', {
    id: 'guess-input', class: 'input input-guess', type: 'text', maxlength: '1', autocomplete: 'off', autocapitalize: 'characters',
    spellcheck: 'false', 'aria-describedby': 'guess-hint guess-error', placeholder: '?',
  });
  const hint = h('p', { class: 'field-hint', id: 'guess-hint', text: guessHint({ touch: touchScreen() }) });
  const guessForm = h('form', { class: 'guess-form', novalidate: true },
    h('label', { for: 'guess-input', class: 'field-label', text: 'Your guess' }),
    guessInput,
    hint);
  const keys = new Map();
  const keyboard = h('div', { class: 'keyboard', id: 'keyboard', role: 'group', 'aria-label': 'Letters' },
    KEYBOARD_ROWS.map((row) => h('div', { class: 'keyboard-row' }, [...row].map((letter) => {
      const key = h('button', { type: 'button', class: 'key', dataset: { letter }, text: letter });
      // The phone layout orders keys alphabetically, 7 a row (see .keyboard in snowman.css).
      key.style.setProperty('--alpha', String(ALPHABET.indexOf(letter)));
      keys.set(letter, key);
      return key;
    }))));
  const newGame = h('button', { type: 'button', class: 'button button-primary', id: 'new-game' }, 'New game', h('kbd', { text: 'Enter' }));
  const waiting = h('p', { class: 'waiting-note', id: 'waiting-host' });
  const controls = h('div', { class: 'next-game' }, newGame, waiting);

  const scoresList = h('ol', { class: 'score-list', id: 'snowman-scores' });
  const guessedList = h('ul', { class: 'guessed', id: 'guessed-letters', 'aria-label': 'Guessed letters' });
  const boardList = h('ol', { class: 'score-list leaderboard', id: 'snowman-leaderboard', 'aria-labelledby': 'leaderboard-heading' });
  const boardEmpty = h('p', { class: 'muted small', id: 'leaderboard-empty', text: 'Points add up here after each game.' });
  const podium = createPodium({ id: 'snowman-podium', label: 'Top three tonight', rest: false });

  const element = h('div', { class: 'snowman-game' },
    h('section', { class: 'card stage-card', 'aria-labelledby': 'snowman-heading' },
      h('h2', { class: 'visually-hidden', id: 'snowman-heading', text: 'Snowman' }),
      h('div', { class: 'stage' },
        h('div', { class: 'figure-wrap' }, figure.element, h('div', { class: 'wrong-meter' }, pips, wrongText)),
        h('div', { class: 'play' },
          status, turnRow, word, moveError,
          h('div', { class: 'guessed-wrap' }, h('span', { class: 'field-label', text: 'Guessed' }), guessedList),
          controls))),
    h('section', { class: 'card input-card', 'aria-label': 'Guess a letter' }, guessForm, keyboard),
    h('div', { class: 'score-columns' },
      h('section', { class: 'card', id: 'scores-card', 'aria-labelledby': 'scores-heading' },
        h('div', { class: 'card-header' }, h('h2', { id: 'scores-heading', text: 'This game' })),
        scoresList),
      h('section', { class: 'card leaderboard-card', id: 'leaderboard-card', 'aria-labelledby': 'leaderboard-heading' },
        h('div', { class: 'card-header' }, h('h2', { id: 'leaderboard-heading' }, icon('trophy', 18), 'Tonight'),
          h('span', { class: 'muted small', text: 'Room leaderboard' })),
        boardEmpty, podium.element, boardList)));

  let current = null;
  let live = false;
  let shownErrorId = null;
  let lastGameNumber = null;
  let wasMyTurn = false;
  const touchMedia = typeof window.matchMedia === 'function' ? window.matchMedia(TOUCH_QUERY) : null;
  const onPointerChange = () => { if (current) render(); };
  touchMedia?.addEventListener?.('change', onPointerChange);

  /** Whether this player may type guesses at all (it may still not be their turn). */
  function canPlay() {
    const game = current?.room?.state?.snowman;
    return Boolean(live && game && game.status === 'inProgress' && me(current)?.role === 'player');
  }

  function canGuess() {
    return canPlay() && current.room.state.snowman.turn === current.room.you;
  }

  function newGameShown() {
    const game = current?.room?.state?.snowman;
    return Boolean(live && game && game.canStartNext && isHost(current));
  }

  function guess(letter) {
    const upper = String(letter).toUpperCase();
    if (!/^[A-Z]$/.test(upper) || !canPlay()) return;
    const game = current.room.state.snowman;
    if (!canGuess()) {
      setText(moveError, `Not your turn: ${memberName(current.room.state, game.turn)} is guessing.`);
      return;
    }
    if (game.guesses.some((entry) => entry.letter === upper)) {
      setText(moveError, `${upper} has already been guessed. Try another letter.`);
      return;
    }
    setText(moveError, '');
    actions.play({ type: 'guess', letter: upper });
  }

  guessInput.addEventListener('input', () => {
    const letter = guessInput.value.slice(-1);
    guessInput.value = '';
    guess(letter);
  });
  guessForm.addEventListener('submit', (event) => event.preventDefault());
  keyboard.addEventListener('click', (event) => {
    const key = event.target.closest('.key');
    if (key && !key.disabled) guess(key.dataset.letter);
  });
  newGame.addEventListener('click', () => {
    if (newGameShown()) actions.newGame();
  });
  skip.addEventListener('click', () => {
    if (!skip.disabled) actions.skipTurn();
  });

  function onKeydown(event) {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    if (document.querySelector('dialog[open]')) return;
    if (event.key === 'Enter' && newGameShown() && !isTyping(event.target) && !(event.target instanceof HTMLButtonElement)) {
      event.preventDefault();
      actions.newGame();
      return;
    }
    if (isTyping(event.target) || event.key.length !== 1 || !/^[a-z]$/i.test(event.key)) return;
    event.preventDefault();
    guess(event.key);
  }
  document.addEventListener('keydown', onKeydown);

  function renderCountdown() {
    const game = current?.room?.state?.snowman;
    const endsAt = game?.status === 'inProgress' ? game.turnEndsAt : null;
    const left = countdownOf(endsAt, serverNow(current?.room, Date.now() / 1000), URGENT_SECONDS);
    show(countdown, left !== null);
    if (left === null) return;
    setText(countdown, left.text);
    countdown.setAttribute('aria-label', left.label);
    countdown.classList.toggle('is-urgent', left.urgent);
  }

  function renderWord(game) {
    word.style.setProperty('--letters', String(game.positions.length));
    syncList(word, game.positions, (position) => position.id, () => h('span', { class: 'tile' }), (tile, position) => {
      setText(tile, position.letter ?? '');
      tile.classList.toggle('is-filled', Boolean(position.letter));
      tile.classList.toggle('is-missed', position.missed);
    });
    const spoken = game.positions.map((position) => position.letter ?? 'blank').join(', ');
    word.setAttribute('aria-label', `The word, ${plural(game.positions.length, 'letter')}: ${spoken}`);
  }

  function renderScores(state, game) {
    const roomState = state.room.state;
    const online = state.connection.status === CONNECTION.ONLINE;
    const members = new Map(roomState.members.map((member) => [member.id, member]));
    const lines = [...game.scores].sort((a, b) => b.score - a.score);
    syncList(scoresList, lines, (line) => line.player, () => h('li', { class: 'score-line' },
      h('span', { class: 'dot', 'aria-hidden': 'true' }), h('span', { class: 'score-name' }), h('span', { class: 'score-turn' }), h('span', { class: 'score-value' })),
    (item, line) => {
      const member = members.get(line.player);
      const seen = presence(member ?? { name: line.name, connected: false }, online);
      item.querySelector('.dot').dataset.connected = seen.state === 'unknown' ? 'unknown' : String(seen.state === 'here');
      item.title = seen.title;
      // Reactions float over the sender's line here too, where a phone player looks.
      item.dataset.reactionFor = line.player;
      const isYou = line.player === state.room.you;
      setTextWithNames(item.querySelector('.score-name'), `${line.name}${isYou ? ' (you)' : ''}${seen.state === 'away' ? ' · away' : ''}`, [line.name]);
      const hasTurn = game.status === 'inProgress' && game.turn === line.player;
      setText(item.querySelector('.score-turn'), hasTurn ? 'guessing' : '');
      item.classList.toggle('has-turn', hasTurn);
      setText(item.querySelector('.score-value'), String(line.score));
    });
  }

  function renderLeaderboard(state, game) {
    const rows = leaderboardRows(game.leaderboard, state.room.you);
    show(boardEmpty, rows.length === 0);
    show(boardList, rows.length > 0);
    show(podium.element, rows.length > 0);
    podium.update(rows.map((row) => ({
      key: row.key, name: row.name, points: row.total, value: row.totalText, isYou: row.isYou,
    })));
    syncList(boardList, rows, (row) => row.key, () => h('li', { class: 'score-line leaderboard-line' },
      h('span', { class: 'rank' }), h('span', { class: 'score-name' }), h('span', { class: 'leaderboard-record' }), h('span', { class: 'score-value' })),
    (item, row) => {
      setText(item.querySelector('.rank'), String(row.rank));
      item.dataset.rank = String(Math.min(row.rank, 4));
      setTextWithNames(item.querySelector('.score-name'), `${row.name}${row.isYou ? ' (you)' : ''}`, [row.name]);
      setText(item.querySelector('.leaderboard-record'), row.record);
      const value = item.querySelector('.score-value');
      setText(value, String(row.total));
      value.setAttribute('aria-label', row.totalText);
      value.title = row.totalText;
    });
  }

  /** On a touch screen, when the turn becomes yours and the keyboard is off screen, bring the game into view. */
  function revealKeyboard() {
    if (!touchScreen() || isTyping(document.activeElement)) return;
    const box = keyboard.getBoundingClientRect();
    const viewport = window.visualViewport?.height ?? window.innerHeight;
    if (box.top >= 0 && box.bottom <= viewport) return;
    element.querySelector('.stage-card').scrollIntoView({ block: 'start', behavior: 'smooth' });
  }

  function render() {
    const state = current;
    const roomState = state.room.state;
    const game = roomState.snowman;
    const you = state.room.you;
    const seat = me(state);
    const touch = touchScreen();

    figure.update(game.wrongGuesses, game.maxWrongGuesses, game.status);
    pips.replaceChildren(...Array.from({ length: game.maxWrongGuesses }, (_, index) => h('span', { class: ['pip', index < game.wrongGuesses && 'is-used'] })));
    setText(wrongText, `${game.wrongGuesses} of ${plural(game.maxWrongGuesses, 'wrong guess', 'wrong guesses')}`);
    const inProgress = game.status === 'inProgress';
    const myTurn = inProgress && game.turn === you;
    // The server's line names the player for everyone ("Bob's turn — guess a letter"); Bob reads it as his own.
    const names = roomNames(roomState);
    setTextWithNames(status, myTurn ? 'Your turn — guess a letter' : game.statusLine, names);
    status.dataset.line = game.statusLine;
    status.dataset.status = game.status;
    turn.dataset.mine = String(myTurn);
    const timed = game.turnEndsAt !== null && game.turnEndsAt !== undefined;
    show(turn, inProgress && game.turn !== null && (myTurn || timed));
    setTextWithNames(turnText, myTurn ? 'Your turn!' : `${memberName(roomState, game.turn)}’s turn`, names);
    renderCountdown();
    const host = isHost(state);
    const canSkip = host && inProgress && game.turn !== null && game.turn !== undefined;
    show(skip, canSkip);
    skip.disabled = !(canSkip && live);
    skip.setAttribute('aria-label', canSkip ? `Skip ${game.turn === you ? 'your' : `${memberName(roomState, game.turn)}’s`} turn` : 'Skip turn');
    turnRow.hidden = turn.hidden && skip.hidden;

    renderWord(game);
    const guessed = new Map(game.guesses.map((entry) => [entry.letter, entry]));
    syncList(guessedList, game.guesses, (entry) => entry.letter, () => h('li', { class: 'guessed-letter' }), (item, entry) => {
      setText(item, entry.letter);
      item.classList.toggle('is-hit', entry.hit);
      item.classList.toggle('is-miss', !entry.hit);
      item.title = `${entry.letter}: ${entry.hit ? `right, +${entry.points}` : 'not in the word'} (${memberName(roomState, entry.player)})`;
    });
    if (game.guesses.length === 0) guessedList.dataset.empty = 'true';
    else delete guessedList.dataset.empty;

    const active = canGuess();
    for (const [letter, key] of keys) {
      const used = guessed.get(letter);
      key.disabled = Boolean(used) || !active;
      key.classList.toggle('is-hit', Boolean(used?.hit));
      key.classList.toggle('is-miss', Boolean(used && !used.hit));
      key.setAttribute('aria-label', used ? `${letter}, ${used.hit ? 'in the word' : 'not in the word'}` : letter);
    }
    keyboard.dataset.active = String(active);
    // On a phone the keyboard is pinned to the bottom only while this player is in a game (app.css).
    element.dataset.playing = String(inProgress && seat?.role === 'player');
    guessInput.disabled = !canPlay();
    setText(hint, guessHint({ touch, spectator: seat?.role === 'spectator', live, inProgress, myTurn }));

    const over = !inProgress;
    const showButton = over && host && live;
    // The host's button keeps its place while hidden (no jump when a game ends); the others never get it.
    newGame.hidden = !host;
    newGame.style.visibility = showButton ? 'visible' : 'hidden';
    newGame.disabled = !showButton;
    newGame.setAttribute('aria-hidden', String(!showButton));
    setTextWithNames(waiting, over && !host ? `Waiting for ${memberName(roomState, roomState.host)} (the host) to start the next game.` : '', names);
    controls.dataset.empty = String(!showButton && !waiting.textContent);

    const notice = state.notice;
    if (notice?.move === 'guess' && notice.id !== shownErrorId) {
      shownErrorId = notice.id;
      setText(moveError, `${notice.title}: ${notice.message}`);
    } else if (notice?.move !== 'guess' && moveError.textContent && !notice) {
      setText(moveError, '');
    }

    renderScores(state, game);
    renderLeaderboard(state, game);

    if (lastGameNumber !== null && game.gameNumber !== lastGameNumber && inProgress) {
      setText(moveError, '');
      // On a touch screen focusing the box would open the phone's own keyboard over the game.
      if (!guessInput.disabled && !touch) guessInput.focus();
    }
    lastGameNumber = game.gameNumber;
    if (myTurn && !wasMyTurn && lastGameNumber !== null) queueMicrotask(revealKeyboard);
    wasMyTurn = myTurn;
  }

  const frame = createGameFrame({
    id: 'snowman', render, tick: renderCountdown, tickMs: COUNTDOWN_TICK_MS,
    accept: (state, context) => { current = state; live = context.live; },
    ticking: (game) => game.turnEndsAt !== null && game.turnEndsAt !== undefined && game.status === 'inProgress',
  });

  return {
    element,
    update: frame.update,
    destroy() {
      document.removeEventListener('keydown', onKeydown);
      touchMedia?.removeEventListener?.('change', onPointerChange);
      frame.destroy();
    },
  };
}

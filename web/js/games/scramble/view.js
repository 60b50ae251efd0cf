// A Word Scramble room's game: the root word, the round timer, the word to submit (typed, or built by tapping the
// root's letter tiles: tap to add, tap a built letter to take it back, Shuffle, Clear) with the server's refusals
// in a banner, the words found (newest first), the scoreboard, the missed words and the Ready button between
// rounds, the final standings on a podium with every round's root and missed words, and the host's Start button.
// On a phone the word, the tiles and Submit stay pinned at the bottom of the screen (scramble.css).

import { h, clock, icon, setText, setTextWithNames, show, syncList, plural } from '../../views/dom.js';
import { isHost, me, serverNow, CONNECTION } from '../../core/store.js';
import { presence } from '../../core/room-format.js';
import { foundEmptyText, foundHeading, scrambleStatusLine, wordPlaceholder } from './game.js';
import { createGameFrame } from '../../views/game-frame.js';
import { createPodium } from '../../views/podium.js';
import { tilesInUse, tileOrder, shuffleTiles, withoutLetter } from './letter-tiles.js';

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
    setTextWithNames(item.querySelector('.found-by'), found.player === you ? 'you' : found.name, [found.name]);
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
  const submit = h('button', { type: 'submit', class: 'button button-primary', id: 'word-submit', text: 'Submit' });
  const built = h('div', { class: 'built-word', id: 'built-word', role: 'group', 'aria-label': 'Your word: tap a letter to take it back' });
  const tiles = h('div', { class: 'letter-tiles', id: 'letter-tiles', role: 'group', 'aria-label': 'Letters: tap to add' });
  const shuffle = h('button', { type: 'button', class: 'button button-secondary tile-action', id: 'tiles-shuffle', text: 'Shuffle' });
  const clear = h('button', { type: 'button', class: 'button button-secondary tile-action', id: 'tiles-clear', text: 'Clear' });
  const form = h('form', { class: 'word-form', novalidate: true }, built, tiles,
    h('div', { class: 'input-row' }, shuffle, clear, input, submit));
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

  const podium = createPodium({ id: 'final-scoreboard', label: 'Final standings' });
  const roundsList = h('ol', { class: 'rounds-played', id: 'rounds-played' });
  const finalCard = h('section', { class: 'card final-card', 'aria-labelledby': 'final-title', hidden: true },
    h('div', { class: 'card-header' }, h('h2', { id: 'final-title' }, icon('trophy', 20), ' Final standings')), podium.element,
    h('h3', { class: 'card-subtitle rounds-title', id: 'rounds-title', text: 'Every round' }), roundsList);

  const readyButton = h('button', { type: 'button', class: 'button button-primary button-large', id: 'ready-button', text: "I'm ready" });
  const readyList = h('ul', { class: 'ready-list', id: 'ready-list', 'aria-label': 'Ready for the next round' });
  const readyNote = h('p', { class: 'muted small', id: 'ready-note' });
  const readyPanel = h('div', { class: 'ready-panel', id: 'ready-panel', hidden: true }, readyButton, readyNote, readyList);
  const scoreList = h('ol', { class: 'score-list', id: 'scramble-scores' });

  const playArea = h('section', { class: 'card play-area play-dock', id: 'play-dock', 'aria-label': 'Your word' }, errorBanner, form);
  const roundCard = h('section', { class: 'card round-card', 'aria-labelledby': 'root-word' },
    h('div', { class: 'round-top' }, roundLabel, timer),
    timerBar, root, status, readyPanel, phasePanel, nextGame);
  const foundCard = h('section', { class: 'card found-card', 'aria-labelledby': 'found-title' },
    h('div', { class: 'card-header' }, foundTitle, progress), foundEmpty, foundList);
  const element = h('div', { class: 'scramble-game' },
    roundCard, playArea, finalCard, missedCard,
    h('div', { class: 'scramble-columns' }, foundCard,
      h('section', { class: 'card', 'aria-labelledby': 'scoreboard-title' },
        h('div', { class: 'card-header' }, h('h2', { id: 'scoreboard-title', text: 'Scoreboard' })), scoreList)));

  let current = null;
  let live = false;
  let shownErrorId = null;
  let lastPhase = null;
  /** The tiles' shown order (indices into the root) and the root it belongs to. */
  let order = [];
  let orderRoot = null;

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
    if (actions.play({ type: 'word', word })) input.value = '';
    renderTiles();
  });
  input.addEventListener('input', () => {
    hideError();
    renderTiles();
  });
  tiles.addEventListener('click', (event) => {
    const tile = event.target.closest('.letter-tile');
    if (!tile || tile.disabled || !canSubmit()) return;
    input.value += tile.dataset.letter.toLowerCase();
    hideError();
    renderTiles();
  });
  built.addEventListener('click', (event) => {
    const letter = event.target.closest('.built-letter');
    if (!letter || !canSubmit()) return;
    input.value = withoutLetter(input.value, Number(letter.dataset.position));
    renderTiles();
  });
  shuffle.addEventListener('click', () => {
    order = shuffleTiles(order, orderRoot);
    renderTiles();
  });
  clear.addEventListener('click', () => {
    input.value = '';
    hideError();
    renderTiles();
  });
  readyButton.addEventListener('click', () => {
    if (!readyButton.disabled) actions.play({ type: 'ready' });
  });
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

  /** The tiles and the built word, from the input's text (typing and tapping edit the same word). */
  function renderTiles() {
    const game = current?.room?.state?.scramble;
    const letters = game?.phase === 'playing' ? String(game.root ?? '').toUpperCase() : '';
    if (letters !== orderRoot) {
      orderRoot = letters;
      order = tileOrder(letters.length);
    }
    const { used, stray } = tilesInUse(letters, order, input.value);
    const enabled = canSubmit();
    syncList(tiles, order, (index) => String(index), () => h('button', { type: 'button', class: 'letter-tile' }), (tile, index) => {
      tile.dataset.letter = letters[index];
      setText(tile, letters[index]);
      tile.disabled = !enabled || used.has(index);
      tile.classList.toggle('is-used', used.has(index));
      tile.setAttribute('aria-label', used.has(index) ? `${letters[index]}, in your word` : letters[index]);
    });
    tiles.style.setProperty('--letters', String(Math.max(letters.length, 1)));
    const typed = [...input.value.toUpperCase()];
    const strays = new Set(stray);
    built.replaceChildren(...typed.map((letter, position) => h('button', {
      type: 'button', class: ['built-letter', strays.has(position) && 'is-stray'], text: letter, disabled: !enabled,
      dataset: { position: String(position) }, 'aria-label': `${letter}: take it back`,
    })));
    built.dataset.empty = String(typed.length === 0);
    clear.disabled = !enabled || typed.length === 0;
    shuffle.disabled = !enabled || letters.length < 2;
  }

  function renderReady(state, game) {
    const resting = game.phase === 'intermission';
    show(readyPanel, resting);
    if (!resting) return;
    const ready = game.ready ?? [];
    const you = state.room.you;
    const player = me(state)?.role === 'player';
    const done = ready.includes(you);
    show(readyButton, player);
    readyButton.disabled = !live || done;
    setText(readyButton, done ? 'Ready ✓' : "I'm ready");
    readyButton.classList.toggle('is-done', done);
    const names = new Map(state.room.state.members.map((member) => [member.id, member.name]));
    const players = state.room.state.members.filter((member) => member.role === 'player' && member.connected);
    setText(readyNote, ready.length
      ? `${ready.length} of ${plural(players.length, 'player')} ready: the next round starts when everyone is.`
      : 'Ready for more? The next round starts when everyone is ready, or when the timer runs out.');
    syncList(readyList, ready, (id) => id, () => h('li', { class: 'ready-chip' }), (item, id) => {
      setTextWithNames(item, `${names.get(id) ?? 'Someone'}${id === you ? ' (you)' : ''}`, [names.get(id)]);
    });
  }

  function renderRounds(game) {
    const rounds = game.roundsPlayed ?? [];
    show(roundsList, rounds.length > 0);
    show(element.querySelector('#rounds-title'), rounds.length > 0);
    syncList(roundsList, rounds, (entry) => String(entry.round), () => h('li', { class: 'round-played' },
      h('div', { class: 'round-played-head' }, h('span', { class: 'round-played-number' }), h('strong', { class: 'round-played-root' }),
        h('span', { class: 'round-played-found' })),
      h('ul', { class: 'missed-list round-played-missed' })),
    (item, entry) => {
      setText(item.querySelector('.round-played-number'), `Round ${entry.round}`);
      setText(item.querySelector('.round-played-root'), entry.root);
      const missed = entry.missed ?? [];
      setText(item.querySelector('.round-played-found'), `${plural(entry.found ?? 0, 'word')} found · ${missed.length} missed`);
      const list = item.querySelector('.round-played-missed');
      syncList(list, missed, (word) => word, () => h('li', { class: 'missed-word' }), (chip, word) => setText(chip, word));
      list.dataset.empty = String(missed.length === 0);
    });
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
    element.dataset.phase = game.phase;
    setText(roundLabel, game.phase === 'lobby' ? `${plural(game.nextSettings.rounds, 'round')} of ${game.nextSettings.roundSeconds} s` : `Round ${game.round} of ${game.rounds}`);
    renderRoot(game.phase === 'lobby' ? 'SCRAMBLE' : game.root);
    root.classList.toggle('is-placeholder', game.phase === 'lobby');
    setTextWithNames(status, scrambleStatusLine(game, hosting), [...roomState.members.map((member) => member.name), ...(game.scoreboard ?? []).map((line) => line.name)]);
    renderTimer();

    const playing = game.phase === 'playing';
    show(playArea, playing);
    let phaseMessage = '';
    if (game.phase === 'lobby') phaseMessage = `Find as many words as you can in eight letters: words of ${game.nextSettings.minWordLength}+ letters, each scoring its length for whoever finds it first.`;
    if (game.phase === 'finished') phaseMessage = 'Thanks for playing! Below: the podium, and every round with the words nobody found.';
    setText(phaseText, phaseMessage);
    show(phasePanel, Boolean(phaseMessage));
    input.disabled = !canSubmit();
    submit.disabled = !canSubmit();
    renderTiles();
    renderReady(state, game);
    const touch = typeof window.matchMedia === 'function' && window.matchMedia('(pointer: coarse)').matches;
    input.placeholder = wordPlaceholder({ touch, spectator: me(state)?.role === 'spectator', live });

    const canStart = game.canStartNext && (game.phase === 'lobby' || game.phase === 'finished');
    startButton.hidden = !(canStart && hosting);
    startButton.disabled = !(canStart && hosting && live);
    setText(startButton, game.phase === 'finished' ? 'Start a new match' : 'Start match');
    const hostName = members.get(roomState.host)?.name ?? 'the host';
    setTextWithNames(waiting, canStart && !hosting ? `Waiting for ${hostName} (the host) to start ${game.phase === 'finished' ? 'a new' : 'the'} match.` : '', [hostName]);
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
      item.dataset.reactionFor = line.player;
      setTextWithNames(item.querySelector('.score-name'), `${line.name}${line.player === you ? ' (you)' : ''}`, [line.name]);
      setText(item.querySelector('.score-value'), String(line.score));
    });

    const last = game.lastRound;
    // At the end of the match the final card lists every round's missed words instead.
    const everyRound = game.phase === 'finished' && (game.roundsPlayed?.length ?? 0) > 0;
    const showMissed = Boolean(last) && (game.phase === 'intermission' || game.phase === 'finished') && !everyRound;
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
      podium.update(final.map((line) => ({
        key: line.player, name: line.name, points: line.score, value: plural(line.score, 'point'), isYou: line.player === you,
      })));
      renderRounds(game);
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
        renderTiles();
        // On a touch screen focusing the box would open the phone's own keyboard over the tiles.
        const touch = typeof window.matchMedia === 'function' && window.matchMedia('(pointer: coarse)').matches;
        if (!input.disabled && !touch) input.focus();
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

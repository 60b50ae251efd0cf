// A Sleuth room's game: the round and its timer, your board (your tries with their letters, from your private
// view, and the word you are typing), the on-screen keyboard with each letter's best known mark, the others'
// boards (marks only while the round runs, letters once it is over), the secret once revealed, the leaderboard
// and the host's Next round button. Typing on a physical keyboard works anywhere on the page but in a text field.

import { h, clock, icon, isTyping, setText, setTextWithNames, show, syncList, plural } from '../../views/dom.js';
import { isHost, me, serverNow } from '../../core/store.js';
import { createGameFrame } from '../../views/game-frame.js';
import {
  MARK, MAX_TRIES, SCORING_TEXT, WORD_LENGTH, canTry, keyLabel, keyboardStates, markName, markSymbol, marksOf,
  ownTries, sleuthBadges, sleuthStatus, tileLabel, triesByPlayer, tryLabel, typedAfterKey,
} from './game.js';

const TIMER_TICK_MS = 250;
const URGENT_SECONDS = 15;
const KEY_ROWS = ['QWERTYUIOP', 'ASDFGHJKL', 'ZXCVBNM'];

/** A tile: its letter (if shown), and the mark's symbol so that colour is never the only cue. */
function tile(className) {
  return h('span', { class: className }, h('span', { class: 'sleuth-letter' }), h('span', { class: 'sleuth-symbol', 'aria-hidden': 'true' }));
}

function drawTile(element, letter, mark) {
  setText(element.querySelector('.sleuth-letter'), letter ? letter.toUpperCase() : '');
  setText(element.querySelector('.sleuth-symbol'), markSymbol(mark));
  if (mark) element.dataset.mark = mark;
  else delete element.dataset.mark;
  element.dataset.filled = String(Boolean(letter || mark));
}

/** `rows` rows of five tiles in `board`: each row `{word, pattern, label, typing}`. */
function drawRows(board, rows, tileClass) {
  syncList(board, rows, (row) => String(row.index), () => h('div', { class: 'sleuth-row', role: 'listitem' },
    ...Array.from({ length: WORD_LENGTH }, () => tile(tileClass))),
  (element, row) => {
    const letters = [...(row.word ?? '').toUpperCase()];
    const marks = marksOf(row.pattern);
    [...element.children].forEach((child, index) => drawTile(child, letters[index], marks[index]));
    element.classList.toggle('is-typing', Boolean(row.typing));
    element.setAttribute('aria-label', row.label);
  });
}

export function createSleuthView(actions) {
  const roundLabel = h('p', { class: 'eyebrow', id: 'sleuth-round' });
  const timer = h('div', { class: 'round-timer', id: 'sleuth-timer', role: 'timer' }, icon('clock', 18), h('span', { class: 'timer-text' }));
  const timerBar = h('div', { class: 'timer-bar', 'aria-hidden': 'true' }, h('span', {}));
  const status = h('p', { class: 'status-line', id: 'sleuth-status', role: 'status', 'aria-live': 'polite' });
  const secret = h('div', { class: 'sleuth-row sleuth-secret', id: 'sleuth-secret', role: 'img', hidden: true },
    ...Array.from({ length: WORD_LENGTH }, () => tile('sleuth-tile')));
  const rules = h('p', { class: 'muted small sleuth-rules', text: SCORING_TEXT });
  const legend = h('ul', { class: 'sleuth-legend', 'aria-label': 'What the marks mean' },
    ...[MARK.RIGHT, MARK.PRESENT, MARK.ABSENT].map((mark) => h('li', {},
      h('span', { class: 'sleuth-tile sleuth-tile-mini', dataset: { mark, filled: 'true' }, 'aria-hidden': 'true' },
        h('span', { class: 'sleuth-symbol', text: markSymbol(mark) })), ` ${markName(mark)}`)));
  const startButton = h('button', { type: 'button', class: 'button button-primary button-large', id: 'sleuth-start', text: 'Next round' });
  const waiting = h('p', { class: 'waiting-note', id: 'sleuth-waiting' });
  const nextRound = h('div', { class: 'next-game' }, startButton, waiting);

  const board = h('div', { class: 'sleuth-board', id: 'sleuth-board', role: 'list', 'aria-label': 'Your tries' });
  const errorTitle = h('strong', {});
  const errorMessage = h('span', {});
  const errorClose = h('button', { type: 'button', class: 'icon-button', 'aria-label': 'Dismiss' }, icon('close', 16));
  const errorBanner = h('div', { class: 'error-banner', id: 'sleuth-error', role: 'alert', hidden: true },
    icon('warning', 20), h('div', { class: 'error-body' }, errorTitle, errorMessage), errorClose);
  const keyboard = h('div', { class: 'sleuth-keyboard', id: 'sleuth-keyboard', role: 'group', 'aria-label': 'Keyboard' },
    ...KEY_ROWS.map((row, index) => h('div', { class: 'sleuth-key-row' },
      index === 2 ? h('button', { type: 'button', class: 'sleuth-key sleuth-key-wide', dataset: { key: 'Enter' }, text: 'Enter', 'aria-label': 'Enter: try the word' }) : null,
      ...[...row].map((letter) => h('button', { type: 'button', class: 'sleuth-key', dataset: { key: letter } },
        h('span', { class: 'sleuth-letter', text: letter }), h('span', { class: 'sleuth-symbol', 'aria-hidden': 'true' }))),
      index === 2 ? h('button', { type: 'button', class: 'sleuth-key sleuth-key-wide', dataset: { key: 'Backspace' }, 'aria-label': 'Delete a letter', text: '⌫' }) : null)));
  const playHint = h('p', { class: 'muted small sleuth-hint', id: 'sleuth-hint' });
  const playCard = h('section', { class: 'card sleuth-play', 'aria-labelledby': 'sleuth-play-title' },
    h('h2', { class: 'visually-hidden', id: 'sleuth-play-title', text: 'Your board' }), board, errorBanner, playHint, keyboard);

  const others = h('ul', { class: 'sleuth-others', id: 'sleuth-others' });
  const othersTitle = h('h2', { id: 'sleuth-others-title', text: 'Players' });
  const othersCard = h('section', { class: 'card sleuth-others-card', 'aria-labelledby': 'sleuth-others-title' },
    h('div', { class: 'card-header' }, othersTitle), others);
  const leaderboard = h('ol', { class: 'score-list', id: 'sleuth-leaderboard' });
  const leaderboardCard = h('section', { class: 'card', 'aria-labelledby': 'sleuth-leaderboard-title', hidden: true },
    h('div', { class: 'card-header' }, h('h2', { id: 'sleuth-leaderboard-title' }, icon('trophy', 20), ' Leaderboard')), leaderboard);

  const roundCard = h('section', { class: 'card sleuth-round-card', 'aria-labelledby': 'sleuth-status' },
    h('div', { class: 'round-top' }, roundLabel, timer), timerBar, status, secret, nextRound, legend, rules);
  const element = h('div', { class: 'sleuth-game' }, roundCard,
    h('div', { class: 'sleuth-columns' }, playCard, h('div', { class: 'sleuth-side' }, othersCard, leaderboardCard)));

  let current = null;
  let live = false;
  let typed = '';
  let sentWord = '';
  let shownErrorId = null;
  let roundKey = null;

  const part = () => current?.room?.state?.sleuth ?? null;
  const you = () => current?.room?.you;
  const playing = () => live && me(current)?.role === 'player' && canTry(part(), you());

  function hideError() {
    show(errorBanner, false);
  }

  function submit() {
    if (!playing() || typed.length !== WORD_LENGTH) return;
    hideError();
    if (actions.play({ type: 'try', word: typed })) {
      sentWord = typed;
      typed = '';
    }
    render();
  }

  function press(key) {
    if (key === 'Enter') {
      submit();
      return;
    }
    if (!playing()) return;
    const next = typedAfterKey(typed, key);
    if (next === typed) return;
    typed = next;
    hideError();
    render();
    revealTypingRow();
  }

  /** On a phone the keyboard sticks to the screen's bottom, over the lower rows: the row being typed is scrolled
   * above it (its `scroll-margin-bottom`, sleuth.css), and left alone when it shows already. */
  function revealTypingRow() {
    const row = board.querySelector('.sleuth-row.is-typing');
    if (row && typeof row.scrollIntoView === 'function') row.scrollIntoView({ block: 'nearest' });
  }

  keyboard.addEventListener('click', (event) => {
    const key = event.target.closest('.sleuth-key');
    if (key && !key.disabled) press(key.dataset.key);
  });
  errorClose.addEventListener('click', hideError);
  startButton.addEventListener('click', () => actions.newGame());

  function onKeydown(event) {
    if (!element.isConnected || event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    if (isTyping(event.target)) return;
    // Enter on a focused button clicks it; only a letter, Backspace or Enter elsewhere is a key of the board.
    if (event.key === 'Enter' && event.target instanceof HTMLButtonElement) return;
    if (event.key !== 'Enter' && event.key !== 'Backspace' && !/^[a-zA-Z]$/.test(event.key)) return;
    if (!playing()) return;
    event.preventDefault();
    press(event.key);
  }
  document.addEventListener('keydown', onKeydown);

  function renderTimer() {
    const game = part();
    const endsAt = game?.roundEndsAt;
    const running = game?.phase === 'playing' && endsAt !== null && endsAt !== undefined;
    show(timer, running);
    timerBar.hidden = !running;
    if (!running) return;
    const left = Math.max(0, endsAt - serverNow(current.room, Date.now() / 1000));
    setText(timer.querySelector('.timer-text'), clock(left));
    timer.setAttribute('aria-label', `${Math.ceil(left)} seconds left in the round`);
    timer.classList.toggle('is-urgent', left <= URGENT_SECONDS);
    const total = game.settings?.roundSeconds ?? 180;
    timerBar.firstElementChild.style.transform = `scaleX(${Math.min(1, left / total)})`;
  }

  function renderOwnBoard(game, mine, isPlayer) {
    show(playCard, isPlayer && game.phase !== 'lobby');
    const rows = mine.map((entry, index) => ({ index, word: entry.word, pattern: entry.pattern, label: `Try ${index + 1}: ${tryLabel(entry.pattern, entry.word)}` }));
    const myBoard = game.boards?.find((entry) => entry.player === you());
    // Until the private view reaches this page, your tries show their marks from the public list.
    const publicRows = triesByPlayer(game).get(you()) ?? [];
    for (let index = rows.length; index < publicRows.length; index += 1) {
      rows.push({ index, word: '', pattern: publicRows[index].pattern, label: `Try ${index + 1}: ${tryLabel(publicRows[index].pattern)}` });
    }
    if (playing() && rows.length < MAX_TRIES) {
      const spelled = typed.toUpperCase();
      rows.push({ index: rows.length, word: typed, pattern: '', typing: true, label: `Try ${rows.length + 1}, typing: ${spelled ? [...spelled].join(' ') : 'empty'}` });
    }
    while (rows.length < (game.maxTries ?? MAX_TRIES)) rows.push({ index: rows.length, word: '', pattern: '', label: `Try ${rows.length + 1}: not played` });
    drawRows(board, rows, 'sleuth-tile');
    board.dataset.solved = String(Boolean(myBoard?.solved));

    const states = keyboardStates(mine);
    const enabled = playing();
    for (const key of keyboard.querySelectorAll('.sleuth-key')) {
      key.disabled = !enabled;
      const letter = key.dataset.key;
      if (letter.length !== 1) continue;
      const mark = states.get(letter);
      setText(key.querySelector('.sleuth-symbol'), markSymbol(mark));
      if (mark) key.dataset.mark = mark;
      else delete key.dataset.mark;
      key.setAttribute('aria-label', keyLabel(letter, mark));
    }
    show(keyboard, game.phase === 'playing' && isPlayer && !myBoard?.done);
    const touch = typeof window.matchMedia === 'function' && window.matchMedia('(pointer: coarse)').matches;
    let hint = '';
    if (!live) hint = 'Waiting for the connection…';
    else if (enabled) hint = touch ? 'Tap the letters, then Enter.' : 'Type a word and press Enter.';
    setText(playHint, hint);
    show(playHint, Boolean(hint));
  }

  function renderOthers(game, state) {
    const byPlayer = triesByPlayer(game);
    const boards = (game.boards ?? []).filter((entry) => entry.player !== you() || me(state)?.role !== 'player' || game.phase === 'over');
    const playingHere = me(state)?.role === 'player' && Boolean(game.boards?.some((entry) => entry.player === you()));
    setText(othersTitle, game.phase === 'over' ? 'Every board' : playingHere ? 'Other players' : 'Players');
    syncList(others, boards, (entry) => entry.player, () => h('li', { class: 'sleuth-other' },
      h('div', { class: 'sleuth-other-head' }, h('span', { class: 'sleuth-other-name' }), h('span', { class: 'badge badge-muted sleuth-other-badge' }),
        h('span', { class: 'sleuth-other-points' })),
      h('div', { class: 'sleuth-board sleuth-board-mini', role: 'list' })),
    (item, entry) => {
      const name = `${entry.name}${entry.player === you() ? ' (you)' : ''}`;
      setTextWithNames(item.querySelector('.sleuth-other-name'), name, [entry.name]);
      setText(item.querySelector('.sleuth-other-badge'), sleuthBadges(game, { id: entry.player })[0] ?? '');
      setText(item.querySelector('.sleuth-other-points'), game.phase === 'over' ? plural(entry.points, 'point') : '');
      item.dataset.reactionFor = entry.player;
      const tries = byPlayer.get(entry.player) ?? [];
      const rows = tries.map((one, index) => ({ index, word: one.word ?? '', pattern: one.pattern, label: `Try ${index + 1}: ${tryLabel(one.pattern, one.word)}` }));
      while (rows.length < (game.maxTries ?? MAX_TRIES)) rows.push({ index: rows.length, word: '', pattern: '', label: `Try ${rows.length + 1}: not played` });
      const mini = item.querySelector('.sleuth-board-mini');
      mini.setAttribute('aria-label', `${entry.name}'s tries`);
      drawRows(mini, rows, 'sleuth-tile sleuth-tile-mini');
      item.classList.toggle('is-solved', entry.solved);
    });
    othersCard.hidden = boards.length === 0;
  }

  function renderLeaderboard(game) {
    const lines = game.leaderboard ?? [];
    leaderboardCard.hidden = lines.length === 0;
    syncList(leaderboard, lines, (line) => line.player, () => h('li', { class: 'score-line' },
      h('span', { class: 'rank' }), h('span', { class: 'score-name' }), h('span', { class: 'muted small sleuth-score-detail' }), h('span', { class: 'score-value' })),
    (item, line) => {
      setText(item.querySelector('.rank'), String(line.rank));
      setTextWithNames(item.querySelector('.score-name'), `${line.name}${line.player === you() ? ' (you)' : ''}`, [line.name]);
      setText(item.querySelector('.sleuth-score-detail'), `${line.solved} of ${plural(line.rounds, 'round')} solved`);
      setText(item.querySelector('.score-value'), String(line.total));
      item.querySelector('.score-value').setAttribute('aria-label', plural(line.total, 'point'));
      item.dataset.reactionFor = line.player;
    });
  }

  function render() {
    const state = current;
    const game = part();
    if (!state || !game) return;
    const roomState = state.room.state;
    const hosting = isHost(state);
    const isPlayer = me(state)?.role === 'player';
    const key = `${game.round}:${game.phase}`;
    if (key !== roundKey) {
      if (game.phase === 'playing') {
        typed = '';
        sentWord = '';
        hideError();
      }
      roundKey = key;
    }
    element.dataset.phase = game.phase;
    setText(roundLabel, game.phase === 'lobby' ? `Rounds of ${game.nextSettings?.roundSeconds ?? 180} s` : `Round ${game.round}`);
    setTextWithNames(status, sleuthStatus(game, { you: you(), isPlayer, hosting }), roomState.members.map((member) => member.name));
    renderTimer();

    const revealed = game.phase === 'over' && game.secret;
    show(secret, Boolean(revealed));
    if (revealed) {
      [...secret.children].forEach((child, index) => drawTile(child, game.secret[index], MARK.RIGHT));
      secret.setAttribute('aria-label', `The word was ${game.secret}`);
    }

    const canStart = game.canStartNext && game.phase !== 'playing';
    startButton.hidden = !(canStart && hosting);
    startButton.disabled = !(canStart && hosting && live);
    setText(startButton, game.phase === 'lobby' ? 'Start the first round' : 'Next round');
    const hostName = roomState.members.find((member) => member.id === roomState.host)?.name ?? 'the host';
    setTextWithNames(waiting, canStart && !hosting ? `Waiting for ${hostName} (the host) to start the next round.` : '', [hostName]);
    show(nextRound, !startButton.hidden || Boolean(waiting.textContent));

    const mine = ownTries(game, state.privateView ?? null, you());
    renderOwnBoard(game, mine, isPlayer);
    renderOthers(game, state);
    renderLeaderboard(game);

    const notice = state.notice;
    if (notice?.move === 'try' && notice.id !== shownErrorId) {
      shownErrorId = notice.id;
      // The refused word comes back to the board, to be mended rather than typed again.
      if (!typed && sentWord) typed = sentWord;
      sentWord = '';
      setText(errorTitle, notice.title);
      setText(errorMessage, notice.message);
      show(errorBanner, true);
      renderOwnBoard(game, mine, isPlayer);
    }
  }

  const frame = createGameFrame({
    id: 'sleuth', render, tick: renderTimer, tickMs: TIMER_TICK_MS,
    accept: (state, context) => { current = state; live = context.live; },
    ticking: (game) => game?.phase === 'playing' && game.roundEndsAt !== null,
  });

  return {
    element,
    update(state, previous, context) {
      frame.update(state, previous, context);
      // The frame redraws on a change of the room state; a change of your private view alone needs a redraw too.
      if (state.privateView !== previous?.privateView) render();
    },
    destroy() {
      document.removeEventListener('keydown', onKeydown);
      frame.destroy();
    },
  };
}

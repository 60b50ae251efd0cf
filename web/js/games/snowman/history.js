// The room's finished Snowman games, newest first; selecting one shows its word, result and scores.

import { h, setText, setTextWithNames, show, syncList, plural } from '../../views/dom.js';

function resultText(record, roomState) {
  if (record.result === 'won') {
    const solver = record.scores.find((line) => line.player === record.solver)?.name
      ?? roomState.members.find((member) => member.id === record.solver)?.name;
    return solver ? `Solved by ${solver}` : 'Solved';
  }
  return 'The snowman melted';
}

export function createSnowmanHistoryView(actions) {
  const list = h('ul', { class: 'history-list', id: 'history-list' });
  const empty = h('p', { class: 'muted small', text: 'Finished games will appear here.' });
  const detailWord = h('p', { class: 'history-word' });
  const detailResult = h('p', { class: 'history-result' });
  const detailScores = h('ol', { class: 'score-list compact' });
  const detail = h('div', { class: 'history-detail', id: 'history-detail', 'aria-live': 'polite', hidden: true },
    detailWord, detailResult, detailScores);
  const element = h('section', { class: 'card side-card', 'aria-labelledby': 'history-heading' },
    h('div', { class: 'card-header' }, h('h2', { id: 'history-heading', text: 'Past games' })),
    empty, list, detail);

  list.addEventListener('click', (event) => {
    const button = event.target.closest('button[data-game]');
    if (button) actions.selectGame(Number(button.dataset.game));
  });

  let lastHistory = null;
  let lastSelected;

  return {
    element,
    update(state) {
      const roomState = state.room.state;
      const history = roomState.snowman.history ?? [];
      const selected = state.ui.selectedGame;
      if (history === lastHistory && selected === lastSelected) return;
      lastHistory = history;
      lastSelected = selected;
      const records = [...history].sort((a, b) => b.gameNumber - a.gameNumber);
      show(empty, records.length === 0);
      syncList(list, records, (record) => record.gameNumber, () => h('li', {},
        h('button', { type: 'button', class: 'history-item' },
          h('span', { class: 'history-number' }), h('span', { class: 'history-name' }), h('span', { class: 'badge' }))),
      (item, record) => {
        const button = item.firstElementChild;
        button.dataset.game = String(record.gameNumber);
        button.setAttribute('aria-pressed', String(record.gameNumber === selected));
        button.setAttribute('aria-controls', 'history-detail');
        setText(button.querySelector('.history-number'), `#${record.gameNumber}`);
        setText(button.querySelector('.history-name'), record.word);
        const badge = button.querySelector('.badge');
        setText(badge, record.result === 'won' ? 'Won' : 'Lost');
        badge.dataset.status = record.result;
      });
      const record = records.find((entry) => entry.gameNumber === selected);
      show(detail, Boolean(record));
      if (!record) return;
      setText(detailWord, record.word);
      setTextWithNames(detailResult, `Game ${record.gameNumber}: ${resultText(record, roomState)}, ${record.wrongGuesses} of ${plural(record.maxWrongGuesses, 'wrong guess', 'wrong guesses')}.`, record.scores.map((line) => line.name));
      detailScores.replaceChildren(...record.scores.map((line) => h('li', { class: 'score-line' },
        h('span', { class: 'rank', text: String(line.rank) }), h('span', { class: 'score-name' }, h('bdi', { text: line.name })),
        h('span', { class: 'score-value', text: String(line.score) }))));
    },
  };
}

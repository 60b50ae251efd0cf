// The room's chat: the last lines, oldest first, and a box to add one (up to 200 characters). The room's own
// lines (someone joined, a result, a new host…) are styled by their `notice` kind, apart from people's lines.
// Above the box, the reaction bar (reactions.js) unless the room page mounts it elsewhere.

import { h, setText, setTextWithNames, syncList } from './dom.js';
import { MAX_CHAT_LENGTH } from '../core/game-settings.js';
import { chatLine } from '../core/room-format.js';
import { createReactionsView } from './reactions.js';

/**
 * The notice kinds of PROTOCOL.md ("Notices: the room's own chat lines"); a system line of a kind this page does
 * not know is `other`.
 */
export const NOTICE_KINDS = Object.freeze(['join', 'leave', 'kick', 'host', 'skip', 'result', 'seat', 'rename']);

/** The kind a chat line is drawn as: a notice kind, `other` for any other room line, '' for a person's line. */
export function noticeKind(line) {
  if (!chatLine(line).system) return '';
  return NOTICE_KINDS.includes(line.notice) ? line.notice : 'other';
}

/** Characters left at which the counter appears. */
const COUNTER_FROM = 40;

function timeOf(seconds) {
  const date = new Date(seconds * 1000);
  return date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
}

/**
 * @param {object} actions
 * @param {{reactions?: boolean}} [options] `reactions: false` leaves the reaction bar out (mounted elsewhere).
 */
export function createChatView(actions, { reactions = true } = {}) {
  const reactionBar = reactions ? createReactionsView(actions) : null;
  const list = h('ol', { class: 'chat-list', id: 'chat-list', 'aria-live': 'polite', 'aria-relevant': 'additions' });
  const empty = h('p', { class: 'muted small chat-empty', text: 'No messages yet. Say hello!' });
  const input = h('input', {
    id: 'chat-input', class: 'input', type: 'text', maxlength: String(MAX_CHAT_LENGTH), autocomplete: 'off',
    placeholder: 'Message the room', 'aria-label': 'Chat message', 'aria-describedby': 'chat-counter chat-error',
  });
  const send = h('button', { type: 'submit', class: 'button button-secondary', text: 'Send' });
  const counter = h('span', { class: 'chat-counter', id: 'chat-counter', 'aria-live': 'polite' });
  const error = h('p', { class: 'field-error', id: 'chat-error', role: 'alert' });
  const form = h('form', { class: 'chat-form', novalidate: true }, h('div', { class: 'input-row' }, input, send), counter, error);
  const element = h('section', { class: 'card side-card chat-card', 'aria-labelledby': 'chat-heading' },
    h('div', { class: 'card-header' }, h('h2', { id: 'chat-heading', text: 'Chat' })), empty, list, reactionBar?.element, form);

  function updateCounter() {
    const left = MAX_CHAT_LENGTH - input.value.length;
    setText(counter, left <= COUNTER_FROM ? `${left} characters left` : '');
  }

  input.addEventListener('input', () => {
    updateCounter();
    setText(error, '');
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    if (actions.chat(text)) {
      input.value = '';
      updateCounter();
    }
  });

  let lastChat = null;
  let shownErrorId = null;
  return {
    element,
    update(state, previous, context) {
      const chat = state.room.state.chat;
      reactionBar?.update(state, previous, context);
      input.disabled = !context.live;
      send.disabled = !context.live;
      if (state.notice?.move === 'chat' && state.notice.id !== shownErrorId) {
        shownErrorId = state.notice.id;
        setText(error, `${state.notice.title}: ${state.notice.message}`);
      }
      if (chat === lastChat) return;
      lastChat = chat;
      const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 24;
      const names = [...state.room.state.members.map((member) => member.name), ...chat.map((line) => line.name)];
      empty.hidden = chat.length > 0;
      syncList(list, chat, (line) => line.id, () => h('li', { class: 'chat-line' },
        h('span', { class: 'chat-meta' }, h('span', { class: 'chat-name' }), h('time', { class: 'chat-time' })),
        h('span', { class: 'chat-text' })),
      (item, line) => {
        const shown = chatLine(line, state.room.you);
        const name = item.querySelector('.chat-name');
        setTextWithNames(name, shown.name, [shown.name]);
        name.hidden = shown.system;
        const time = item.querySelector('.chat-time');
        setText(time, timeOf(line.at));
        time.dateTime = new Date(line.at * 1000).toISOString();
        // System lines name players ("Bob skipped a turn"); a player's own message may mention anyone.
        setTextWithNames(item.querySelector('.chat-text'), shown.text, names);
        item.classList.toggle('is-mine', shown.mine);
        // Announcements of the room (a skipped turn, ...) are nobody's message: centred and muted, marked by kind.
        item.classList.toggle('is-system', shown.system);
        const kind = noticeKind(line);
        if (kind) item.dataset.notice = kind;
        else delete item.dataset.notice;
      });
      if (atBottom || previous?.room?.state?.chat === undefined) list.scrollTop = list.scrollHeight;
    },
  };
}

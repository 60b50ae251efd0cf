// Reactions: a compact bar of the eight emoji any member can tap, and the bubbles that show a received reaction
// for a moment over the sender's name (members list, and any element marked `data-reaction-for="MEMBER_ID"`,
// such as a scoreboard row). Reactions are not in the room's state: the store lists the received ones
// (`state.reactions`, each with an `id`) and the bubbles show the new ones once.

import { h, setText } from './dom.js';
import { REACTIONS } from '../core/store.js';

/** What each reaction says to a screen reader. */
const REACTION_NAMES = Object.freeze({
  '👍': 'thumbs up', '😂': 'laughing', '😮': 'surprised', '🎉': 'party', '❤️': 'love', '👏': 'applause',
  '😱': 'shocked', '🔥': 'fire',
});
/** How long a bubble stays (its CSS animation lasts as long). */
export const BUBBLE_MS = 2400;
/** How long a refused reaction's note stays over the bar. */
const TOAST_MS = 4000;
/** Bubbles stacked on one name at most (a burst shows the newest). */
const MAX_BUBBLES_PER_ANCHOR = 3;

/** "party" for 🎉; the emoji itself for one this page does not know. */
export function reactionName(emoji) {
  return REACTION_NAMES[emoji] ?? emoji;
}

/**
 * The reaction bar. `update(state, previous, context)` enables it while the seat is live.
 * @returns {{element: HTMLElement, update: Function}}
 */
export function createReactionsView(actions) {
  const buttons = REACTIONS.map((emoji) => h('button', {
    type: 'button', class: 'reaction-button', dataset: { emoji }, title: `React: ${reactionName(emoji)}`,
    'aria-label': `React with ${reactionName(emoji)}`, text: emoji,
  }));
  // Refusals (`too-many-reactions`) show as a small note over the bar for a moment, not as the page's toast.
  const toast = h('p', { class: 'reaction-toast', id: 'reaction-toast', role: 'status', hidden: true });
  const element = h('div', { class: 'reaction-bar', role: 'group', 'aria-label': 'Send a reaction' }, buttons, toast);
  let shownNotice = null;
  let toastTimer = null;
  element.addEventListener('click', (event) => {
    const button = event.target.closest('button[data-emoji]');
    if (!button || button.disabled) return;
    actions.react(button.dataset.emoji);
    // A small press acknowledgement; the real answer is the reaction coming back over the sender's name.
    button.classList.remove('is-sent');
    void button.offsetWidth;
    button.classList.add('is-sent');
  });
  return {
    element,
    update(state, previous, context) {
      const live = Boolean(context?.live);
      for (const button of buttons) button.disabled = !live;
      const notice = state.notice;
      if (notice?.move === 'react' && notice.id !== shownNotice) {
        shownNotice = notice.id;
        setText(toast, notice.message || notice.title);
        toast.hidden = false;
        clearTimeout(toastTimer);
        toastTimer = setTimeout(() => {
          toast.hidden = true;
          actions.dismissNotice?.(notice.id);
        }, TOAST_MS);
      }
    },
  };
}

/**
 * Shows each new reaction of `state.reactions` as a bubble on every element of `root` marked
 * `data-reaction-for` with the sender's id, and says it in a polite live region ("Bob: party").
 * @param {object} deps
 * @param {ParentNode} deps.root where to look for anchors (the document)
 * @param {(fn: Function, ms: number) => any} [deps.setTimeout]
 */
export function createReactionBubbles({ root, setTimeout: later = (fn, ms) => globalThis.setTimeout(fn, ms) }) {
  const announcer = h('p', { class: 'visually-hidden', 'aria-live': 'polite', id: 'reaction-announcer' });
  let lastShown = null;

  function nameOf(state, player) {
    return state.room?.state?.members?.find((member) => member.id === player)?.name ?? 'Someone';
  }

  function bubble(anchor, emoji) {
    const existing = anchor.querySelectorAll(':scope > .reaction-bubble');
    if (existing.length >= MAX_BUBBLES_PER_ANCHOR) existing[0].remove();
    const offset = anchor.querySelectorAll(':scope > .reaction-bubble').length;
    const element = h('span', { class: 'reaction-bubble', 'aria-hidden': 'true', text: emoji, dataset: { offset: String(offset) } });
    anchor.append(element);
    later(() => element.remove(), BUBBLE_MS);
  }

  return {
    element: announcer,
    update(state) {
      const reactions = state.reactions ?? [];
      const newest = reactions.length ? reactions[reactions.length - 1].id : 0;
      if (lastShown === null || newest < lastShown) {
        // First look (or the list started over): what is already there is old news.
        lastShown = newest;
        return;
      }
      for (const reaction of reactions) {
        if (reaction.id <= lastShown) continue;
        for (const anchor of root.querySelectorAll('[data-reaction-for]')) {
          if (anchor.dataset.reactionFor === reaction.player) bubble(anchor, reaction.emoji);
        }
        setText(announcer, `${nameOf(state, reaction.player)}: ${reactionName(reaction.emoji)}`);
      }
      lastShown = newest;
    },
  };
}

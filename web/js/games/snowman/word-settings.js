// Snowman's word settings, in the create dialog and the host's settings card: the word pack, the host's own
// words (a textarea checked line by line as it is typed, with core/custom-words.js) and whether those words are
// used alone or mixed with the pack. The pasted list stays in this browser; the others only see how many words.

import { h, setText, show } from '../../views/dom.js';
import { WORD_PACKS, WORD_SOURCES } from './game.js';
import {
  parseCustomWords, describeProblem, summarizeCustomWords, PROBLEMS_SHOWN, MIN_CUSTOM_WORDS, MAX_CUSTOM_WORDS,
  MIN_WORD_LETTERS, MAX_WORD_LETTERS,
} from './custom-words.js';

/** Waits this long after the last key before checking the list again (a pasted list is checked at once). */
const CHECK_DELAY_MS = 150;

/**
 * @param {object} options
 * @param {string} options.id prefix of the element ids (`create`, `host`)
 * @param {() => void} [options.onChange] after any change
 * @returns {{element, value, set, check, showServerError, setDisabled, focusWords}}
 */
export function createWordSettings({ id, onChange = () => {} }) {
  const pack = h('select', { class: 'input select', id: `${id}-pack` },
    WORD_PACKS.map((entry) => h('option', { value: entry.id, text: entry.label })));
  const words = h('textarea', {
    class: 'input textarea custom-words-input', id: `${id}-custom-words`, rows: '5', spellcheck: 'false',
    // No maxlength: a pasted list that is too long is said to be, not cut silently.
    autocomplete: 'off', autocapitalize: 'characters',
    placeholder: 'snowball\nmittens\ncocoa, sledge', 'aria-describedby': `${id}-custom-words-hint ${id}-custom-words-status ${id}-custom-words-problems`,
  });
  const hint = h('p', {
    class: 'field-hint', id: `${id}-custom-words-hint`,
    text: `One per line or separated by commas: ${MIN_CUSTOM_WORDS}-${MAX_CUSTOM_WORDS} words of ${MIN_WORD_LETTERS}-${MAX_WORD_LETTERS} letters A-Z. Only you see the list; the others see how many words.`,
  });
  const status = h('p', { class: 'custom-words-status', id: `${id}-custom-words-status`, 'aria-live': 'polite' });
  const problems = h('ul', { class: 'custom-words-problems', id: `${id}-custom-words-problems`, 'aria-label': 'Words to fix' });
  const serverError = h('p', { class: 'field-error', id: `${id}-custom-words-error`, role: 'alert' });
  const sourceName = `${id}-word-source`;
  const sources = h('div', { class: 'segmented word-source', role: 'radiogroup', 'aria-label': 'Which words to play' },
    WORD_SOURCES.map((source, index) => h('label', { class: 'segment' },
      h('input', { type: 'radio', name: sourceName, value: source.id, id: `${id}-source-${source.id}`, checked: index === 0 }),
      h('span', { text: source.label }))));
  const sourceField = h('div', { class: 'word-source-field' },
    h('span', { class: 'field-label word-source-label', id: `${id}-word-source-label`, text: 'Play with' }), sources);
  sources.removeAttribute('aria-label');
  sources.setAttribute('aria-labelledby', `${id}-word-source-label`);
  const element = h('div', { class: 'word-settings', dataset: { for: id } },
    h('div', { class: 'field' }, h('label', { class: 'field-label', for: `${id}-pack`, text: 'Word pack' }), pack),
    h('div', { class: 'field' },
      h('label', { class: 'field-label', for: `${id}-custom-words`, text: 'Your own words (optional)' }),
      words, hint, status, problems, serverError, sourceField));

  let checked = parseCustomWords('');
  let timer = null;

  function selectedSource() {
    return element.querySelector(`input[name="${sourceName}"]:checked`)?.value ?? WORD_SOURCES[0].id;
  }

  /** Checks the list now and shows what is wrong, line by line. */
  function check() {
    clearTimeout(timer);
    timer = null;
    checked = parseCustomWords(words.value);
    const empty = checked.words.length === 0 && checked.problems.length === 0;
    element.dataset.words = empty ? 'none' : checked.ok ? 'ok' : 'problems';
    show(sourceField, !empty);
    setText(status, empty ? '' : [summarizeCustomWords(checked), checked.countProblem].filter(Boolean).join(' — '));
    status.dataset.ok = String(checked.ok);
    const shown = checked.problems.slice(0, PROBLEMS_SHOWN).map((problem) => h('li', { text: describeProblem(problem) }));
    const more = checked.problems.length - PROBLEMS_SHOWN;
    if (more > 0) shown.push(h('li', { class: 'more', text: `and ${more} more` }));
    problems.replaceChildren(...shown);
    show(problems, shown.length > 0);
    if (checked.problems.length > 0 || checked.countProblem) words.setAttribute('aria-invalid', 'true');
    else words.removeAttribute('aria-invalid');
    return checked;
  }

  words.addEventListener('input', (event) => {
    setText(serverError, '');
    clearTimeout(timer);
    if (event.inputType === 'insertFromPaste' || event.inputType === 'insertFromDrop') check();
    else timer = setTimeout(check, CHECK_DELAY_MS);
    onChange();
  });
  words.addEventListener('blur', () => {
    if (timer !== null) check();
  });
  pack.addEventListener('change', () => onChange());
  sources.addEventListener('change', () => onChange());
  check();

  return {
    element,
    /** `{pack, customWords, wordSource}` as chosen (customWords the text as typed). */
    value() {
      return { pack: pack.value, customWords: words.value, wordSource: selectedSource() };
    },
    /** Shows these values (any left out stay as they are). */
    set({ pack: packId, customWords, wordSource } = {}) {
      if (packId !== undefined && WORD_PACKS.some((entry) => entry.id === packId)) pack.value = packId;
      if (customWords !== undefined) words.value = customWords;
      if (wordSource !== undefined) {
        for (const input of sources.querySelectorAll('input')) input.checked = input.value === wordSource;
        if (!sources.querySelector('input:checked')) sources.querySelector('input').checked = true;
      }
      check();
    },
    /** The list checked now: `parseCustomWords`'s answer. */
    check,
    /** The server's `bad-words` (or another refusal of the list), shown at the field. */
    showServerError(text) {
      setText(serverError, text ?? '');
    },
    setDisabled(disabled) {
      pack.disabled = disabled;
      words.readOnly = disabled;
      for (const input of sources.querySelectorAll('input')) input.disabled = disabled;
    },
    focusWords() {
      words.focus();
    },
  };
}

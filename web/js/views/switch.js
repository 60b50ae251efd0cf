// An on/off switch (ARIA `switch` role) with its label and hint beside it: the host's room lock, the sounds setting.

import { h } from './dom.js';

/**
 * @param {object} options
 * @param {string} options.id the button's id; the label and the hint get `${id}-label` and `${id}-hint`
 * @param {string} options.label what the switch is, in a few words
 * @param {string} options.hint what it does, in a sentence
 * @param {boolean} options.checked whether it starts on
 * @returns {{row: HTMLElement, button: HTMLButtonElement, label: HTMLElement, hint: HTMLElement}}
 */
export function createSwitch({ id, label, hint, checked }) {
  const labelElement = h('span', { class: 'switch-label', id: `${id}-label`, text: label });
  const hintElement = h('span', { class: 'switch-hint', id: `${id}-hint`, text: hint });
  const button = h('button', {
    type: 'button', class: 'switch', id, role: 'switch', 'aria-checked': String(checked),
    'aria-labelledby': `${id}-label`, 'aria-describedby': `${id}-hint`,
  }, h('span', { class: 'switch-thumb', 'aria-hidden': 'true' }));
  const row = h('div', { class: 'switch-row' }, h('div', { class: 'switch-text' }, labelElement, hintElement), button);
  return { row, button, label: labelElement, hint: hintElement };
}

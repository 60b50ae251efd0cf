// The settings dialog: the player's name, the appearance (system, light, dark) and the accent colour. Changes
// apply at once and are remembered (the store saves them; js/boot/theme.js applies them before the next paint).

import { h, setText } from './dom.js';
import { createModal } from './create-dialog.js';
import { ACCENTS, THEMES } from '../core/prefs.js';
import { NAME_INPUT_MAX_LENGTH } from '../core/game-settings.js';

const THEME_LABELS = { system: 'Follow system', light: 'Light', dark: 'Dark' };

export function createSettingsDialog(actions) {
  const nameInput = h('input', { id: 'settings-name', class: 'input', type: 'text', maxlength: String(NAME_INPUT_MAX_LENGTH), autocomplete: 'nickname' });
  const nameNote = h('p', { class: 'field-hint', id: 'settings-name-hint', text: 'Used when you create or join a room; in a room you already joined, your name stays as it was.' });
  nameInput.setAttribute('aria-describedby', 'settings-name-hint');
  const nameSaved = h('p', { class: 'field-ok', 'aria-live': 'polite' });
  const themes = h('div', { class: 'segmented', role: 'radiogroup', 'aria-labelledby': 'settings-theme-label' },
    THEMES.map((theme) => h('label', { class: 'segment' },
      h('input', { type: 'radio', name: 'settings-theme', value: theme, id: `theme-${theme}` }),
      h('span', { text: THEME_LABELS[theme] }))));
  const accents = h('div', { class: 'swatches', role: 'radiogroup', 'aria-labelledby': 'settings-accent-label' },
    ACCENTS.map((accent) => h('label', { class: 'swatch', dataset: { accent: accent.id }, title: accent.label },
      h('input', { type: 'radio', name: 'settings-accent', value: accent.id, id: `accent-${accent.id}`, 'aria-label': accent.label }),
      h('span', { class: 'swatch-color', 'aria-hidden': 'true' }))));
  const body = h('form', { class: 'dialog-body form', id: 'settings-form', novalidate: true },
    h('div', { class: 'field' }, h('label', { for: 'settings-name', class: 'field-label', text: 'Your name' }), nameInput, nameNote, nameSaved),
    h('fieldset', { class: 'field' }, h('legend', { class: 'field-label', id: 'settings-theme-label', text: 'Appearance' }), themes),
    h('fieldset', { class: 'field' }, h('legend', { class: 'field-label', id: 'settings-accent-label', text: 'Accent colour' }), accents),
    h('div', { class: 'dialog-footer' }, h('button', { type: 'submit', class: 'button button-primary', text: 'Done' })));
  const modal = createModal({ id: 'settings-dialog', title: 'Settings', actions, body });

  function saveName() {
    const value = nameInput.value;
    if (!value.trim()) return;
    const problem = actions.setName(value);
    setText(nameSaved, problem ?? 'Saved.');
  }

  nameInput.addEventListener('change', saveName);
  themes.addEventListener('change', (event) => actions.setTheme(event.target.value));
  accents.addEventListener('change', (event) => actions.setAccent(event.target.value));
  body.addEventListener('submit', (event) => {
    event.preventDefault();
    saveName();
    actions.closeDialog();
  });

  let wasOpen = false;
  return {
    element: modal.element,
    update(state) {
      const open = state.ui.dialog === 'settings';
      if (open && !wasOpen) {
        nameInput.value = state.player.name;
        setText(nameSaved, '');
      }
      modal.setOpen(open, nameInput);
      wasOpen = open;
      for (const input of themes.querySelectorAll('input')) input.checked = input.value === state.settings.theme;
      for (const input of accents.querySelectorAll('input')) input.checked = input.value === state.settings.accent;
    },
  };
}

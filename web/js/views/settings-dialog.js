// The settings dialog: the player's name, the appearance (system, light, dark), the accent colour and the sounds
// (on or off, and their volume). Changes apply at once and are remembered (the store saves them; js/boot/theme.js
// applies the appearance before the next paint). Changing a sound setting plays a short cue to hear it by.

import { h, setText } from './dom.js';
import { createModal } from './create-dialog.js';
import { ACCENTS, THEMES } from '../core/prefs.js';
import { NAME_INPUT_MAX_LENGTH } from '../core/game-settings.js';
import { createSounds } from '../core/sounds.js';
import { createSwitch } from './switch.js';

/** The cue played when the sound settings change. */
const PREVIEW_CUE = 'wordFound';

const THEME_LABELS = { system: 'Follow system', light: 'Light', dark: 'Dark' };

/**
 * @param {object} actions
 * @param {object} [options]
 * @param {() => object} [options.previewSounds] makes the sounds the preview plays on (created at the first change,
 *   which is a user gesture, so the audio may start); by default a sounds.js instance of its own.
 */
export function createSettingsDialog(actions, { previewSounds = () => createSounds() } = {}) {
  const nameInput = h('input', { id: 'settings-name', class: 'input', type: 'text', maxlength: String(NAME_INPUT_MAX_LENGTH), autocomplete: 'nickname' });
  const nameNote = h('p', { class: 'field-hint', id: 'settings-name-hint', text: 'Used when you create or join a room. In a room you are in, change it with the pencil next to your name under People.' });
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
  const sound = createSwitch({
    id: 'settings-sound', label: 'Sounds', hint: 'Short cues for your turn, hits and misses, words and results.', checked: true,
  });
  const { button: soundSwitch, label: soundLabel } = sound;
  const volume = h('input', {
    type: 'range', class: 'volume-slider', id: 'settings-volume', min: '0', max: '100', step: '5',
    'aria-describedby': 'settings-volume-value',
  });
  const volumeValue = h('output', { class: 'volume-value', id: 'settings-volume-value', for: 'settings-volume' });
  const volumeRow = h('div', { class: 'volume-row' },
    h('label', { for: 'settings-volume', class: 'volume-label', text: 'Volume' }), volume, volumeValue);
  const body = h('form', { class: 'dialog-body form', id: 'settings-form', novalidate: true },
    h('div', { class: 'field' }, h('label', { for: 'settings-name', class: 'field-label', text: 'Your name' }), nameInput, nameNote, nameSaved),
    h('fieldset', { class: 'field' }, h('legend', { class: 'field-label', id: 'settings-theme-label', text: 'Appearance' }), themes),
    h('fieldset', { class: 'field' }, h('legend', { class: 'field-label', id: 'settings-accent-label', text: 'Accent colour' }), accents),
    h('fieldset', { class: 'field sound-settings' }, h('legend', { class: 'field-label', text: 'Sound' }),
      sound.row, volumeRow),
    h('div', { class: 'dialog-footer' }, h('button', { type: 'submit', class: 'button button-primary', text: 'Done' })));
  const modal = createModal({ id: 'settings-dialog', title: 'Settings', actions, body });

  function saveName() {
    const value = nameInput.value;
    if (!value.trim()) return;
    const problem = actions.setName(value);
    setText(nameSaved, problem ?? 'Saved.');
  }

  let preview = null;
  /** Plays the preview cue with the settings just chosen (this runs in the gesture that changed them). */
  function playPreview(sound, level) {
    if (!sound) return;
    preview ??= previewSounds();
    preview.unlock();
    preview.setEnabled(true);
    preview.setVolume(level);
    preview.play(PREVIEW_CUE);
  }

  let currentSettings = null;
  soundSwitch.addEventListener('click', () => {
    const on = soundSwitch.getAttribute('aria-checked') !== 'true';
    actions.setSound(on);
    playPreview(on, currentSettings?.volume ?? 0.6);
  });
  // The volume applies while the slider moves; the cue plays where it stops (each arrow key press, or the drop).
  volume.addEventListener('input', () => actions.setVolume(Number(volume.value) / 100));
  volume.addEventListener('change', () => playPreview(currentSettings?.sound !== false, Number(volume.value) / 100));

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
      currentSettings = state.settings;
      const on = state.settings.sound !== false;
      soundSwitch.setAttribute('aria-checked', String(on));
      setText(soundLabel, on ? 'Sounds on' : 'Sounds off');
      const percent = Math.round((Number(state.settings.volume) || 0) * 100);
      if (document.activeElement !== volume) volume.value = String(percent);
      volume.disabled = !on;
      setText(volumeValue, `${percent}%`);
    },
  };
}

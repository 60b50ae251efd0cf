// A bounded number control: − value + . The value is an ARIA spinbutton (arrow keys, Page Up/Down, Home/End);
// the buttons are ordinary buttons, disabled at the ends of the range.

import { h, icon, setText } from './dom.js';
import { clampSetting, formatSetting, settingBounds, stepSetting } from '../core/game-settings.js';

let stepperCounter = 0;

/**
 * @param {object} spec a setting from core/game-settings.js
 * @param {object} options
 * @param {*} options.value initial value
 * @param {(value) => void} options.onChange called with each new value
 * @returns {{element: HTMLElement, value: *, set(value): void, setDisabled(disabled: boolean): void}}
 */
export function createStepper(spec, { value, onChange = () => {} }) {
  stepperCounter += 1;
  const labelId = `stepper-label-${stepperCounter}`;
  let current = clampSetting(spec, value);
  let disabled = false;

  const label = h('span', { class: 'stepper-label', id: labelId, text: spec.label });
  const output = h('span', {
    class: 'stepper-value', role: 'spinbutton', tabindex: '0', 'aria-labelledby': labelId,
    'aria-valuemin': String(spec.min), 'aria-valuemax': String(spec.max),
  });
  const minus = h('button', { type: 'button', class: 'stepper-button', 'aria-label': `Less: ${spec.label}` }, icon('minus'));
  const plus = h('button', { type: 'button', class: 'stepper-button', 'aria-label': `More: ${spec.label}` }, icon('plus'));
  // A setting that can be switched off (the turn timer) gets an "Off" toggle, so Off is one press away, and
  // switching it on again brings back the last value.
  const offable = Object.prototype.hasOwnProperty.call(spec, 'off');
  const offToggle = offable
    ? h('button', { type: 'button', class: 'stepper-off', 'aria-pressed': 'false', 'aria-label': `${spec.label} off`, text: 'Off' })
    : null;
  let lastOn = clampSetting(spec, spec.initial) ?? spec.min;
  const element = h('div', { class: 'stepper', dataset: { setting: spec.key } },
    label, h('div', { class: 'stepper-tools' }, offToggle, h('div', { class: 'stepper-control' }, minus, output, plus)));

  function render() {
    const text = formatSetting(spec, current);
    setText(output, text);
    output.setAttribute('aria-valuetext', text);
    if (current === null) output.removeAttribute('aria-valuenow');
    else output.setAttribute('aria-valuenow', String(current));
    const { lowest, highest } = settingBounds(spec);
    minus.disabled = disabled || current === lowest;
    plus.disabled = disabled || current === highest;
    output.setAttribute('aria-disabled', String(disabled));
    if (offToggle) {
      offToggle.setAttribute('aria-pressed', String(current === null));
      offToggle.disabled = disabled;
    }
    if (current !== null) lastOn = current;
  }

  function change(next) {
    if (disabled || next === current) return;
    current = next;
    render();
    onChange(current);
  }

  minus.addEventListener('click', () => change(stepSetting(spec, current, -1)));
  offToggle?.addEventListener('click', () => change(current === null ? lastOn : null));
  plus.addEventListener('click', () => change(stepSetting(spec, current, +1)));
  output.addEventListener('keydown', (event) => {
    const { lowest, highest } = settingBounds(spec);
    const moves = {
      ArrowUp: () => stepSetting(spec, current, +1),
      ArrowRight: () => stepSetting(spec, current, +1),
      ArrowDown: () => stepSetting(spec, current, -1),
      ArrowLeft: () => stepSetting(spec, current, -1),
      PageUp: () => stepSetting(spec, current, +1, 5),
      PageDown: () => stepSetting(spec, current, -1, 5),
      Home: () => lowest,
      End: () => highest,
      '+': () => stepSetting(spec, current, +1),
      '-': () => stepSetting(spec, current, -1),
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    change(move());
  });
  render();

  return {
    element,
    get value() {
      return current;
    },
    set(next) {
      current = clampSetting(spec, next);
      render();
    },
    setDisabled(flag) {
      disabled = flag;
      render();
    },
  };
}

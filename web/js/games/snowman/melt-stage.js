// How far the snowman has melted after some wrong guesses: pure, so node --test covers it and figure.js draws it.

/** Parts that fall off before the end, in order. */
export const FALLING_PARTS = ['arm-right', 'arm-left', 'scarf', 'hat', 'buttons'];

/**
 * What stage `wrong` of `max` looks like; pure, so the drawing is a function of it. A saved snowman (`status`
 * `won`) gets every part back, stands tall again and grins, however close he came to melting.
 * @returns {{melt: number, fallen: string[], mood: string, lost: boolean}}
 */
export function meltStage(wrong, max, status = 'inProgress') {
  if (status === 'won') return { melt: 0, fallen: [], mood: 'joyful', lost: false };
  const limit = Math.max(1, max);
  const clamped = Math.min(Math.max(0, wrong), limit);
  const melt = clamped / limit;
  const lost = clamped >= limit;
  const fallenCount = lost ? FALLING_PARTS.length : Math.ceil(melt * FALLING_PARTS.length);
  let mood = 'happy';
  if (melt > 0.66) mood = 'sad';
  else if (melt > 0.33) mood = 'worried';
  return { melt, fallen: FALLING_PARTS.slice(0, fallenCount), mood, lost };
}

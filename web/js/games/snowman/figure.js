// The snowman, drawn in SVG, melting one stage per wrong guess. Whatever the room's limit (3 to 10 wrong
// guesses), stage 0 is the whole snowman and stage `max` a puddle with his hat, carrot and coal floating in it;
// the stages between spread the melting evenly: the body sinks and spreads, the puddle and the sun grow, and his
// sticks, scarf, hat and buttons drop off in turn.

import { s } from '../../views/dom.js';
import { FALLING_PARTS, meltStage } from './melt-stage.js';

/** Where the snowman stands: the melting squashes him towards this point. */
const GROUND_Y = 212;
const CENTER_X = 110;

function hat(props = {}) {
  return s('g', { class: 'hat', ...props },
    s('rect', { x: 90, y: 49, width: 40, height: 6, rx: 3, class: 'coal' }),
    s('rect', { x: 96, y: 22, width: 28, height: 29, rx: 4, class: 'coal' }),
    s('rect', { x: 96, y: 42, width: 28, height: 6, class: 'hat-band' }));
}

function carrot(props = {}) {
  return s('path', { d: 'M110 70 L136 75 L110 78 Z', class: 'carrot', ...props });
}

function stick(d, props = {}) {
  return s('path', { d, class: 'stick', ...props });
}

/** Builds the figure; `update(wrong, max, status)` moves it to a stage. */
export function createSnowmanFigure() {
  const sunRays = s('g', { class: 'sun-rays' },
    [0, 45, 90, 135, 180, 225, 270, 315].map((angle) => s('line', {
      x1: 0, y1: -20, x2: 0, y2: -27, transform: `rotate(${angle})`,
    })));
  const sunDisc = s('circle', { r: 12, class: 'sun-disc' });
  const sun = s('g', { class: 'sun', transform: 'translate(172 50)' }, sunRays, sunDisc);

  const mouth = s('path', { class: 'mouth' });
  const face = s('g', { class: 'face' },
    s('circle', { cx: 102, cy: 66, r: 2.8, class: 'coal eye' }),
    s('circle', { cx: 118, cy: 66, r: 2.8, class: 'coal eye' }),
    mouth);
  const parts = {
    'arm-left': stick('M86 112 L50 92 M62 99 L56 86 M62 99 L49 101', { class: 'stick part', 'data-part': 'arm-left' }),
    'arm-right': stick('M134 112 L170 92 M158 99 L164 86 M158 99 L171 101', { class: 'stick part', 'data-part': 'arm-right' }),
    scarf: s('g', { class: 'part scarf', 'data-part': 'scarf' },
      s('path', { d: 'M89 89 Q110 99 131 89 L131 97 Q110 107 89 97 Z' }),
      s('path', { d: 'M118 97 L124 122 L132 119 L127 96 Z' })),
    hat: hat({ class: 'hat part', 'data-part': 'hat' }),
    buttons: s('g', { class: 'part buttons', 'data-part': 'buttons' },
      [106, 119, 132].map((cy) => s('circle', { cx: CENTER_X, cy, r: 3.2, class: 'coal' }))),
  };
  const body = s('g', { class: 'snowman-body' },
    parts['arm-left'], parts['arm-right'],
    s('circle', { cx: CENTER_X, cy: 174, r: 38, class: 'snow' }),
    s('circle', { cx: CENTER_X, cy: 119, r: 28, class: 'snow' }),
    parts.buttons,
    s('circle', { cx: CENTER_X, cy: 72, r: 21, class: 'snow' }),
    parts.scarf, face, carrot({ class: 'carrot nose' }), parts.hat);

  const fallen = {
    'arm-left': stick('M34 214 L70 206 M52 210 L47 200', { class: 'stick fallen', 'data-part': 'arm-left' }),
    'arm-right': stick('M150 210 L186 214 M168 212 L174 202', { class: 'stick fallen', 'data-part': 'arm-right' }),
    scarf: s('path', { d: 'M40 218 Q56 210 72 218 L70 224 Q56 217 42 224 Z', class: 'scarf fallen', 'data-part': 'scarf' }),
    hat: hat({ class: 'hat fallen', 'data-part': 'hat', transform: 'translate(174 198) rotate(-24) scale(0.75) translate(-110 -37)' }),
    buttons: s('g', { class: 'fallen', 'data-part': 'buttons' },
      [[82, 219], [136, 221], [145, 216]].map(([cx, cy]) => s('circle', { cx, cy, r: 2.6, class: 'coal' }))),
  };

  const puddle = s('ellipse', { cx: CENTER_X, cy: GROUND_Y + 2, rx: 20, ry: 4, class: 'puddle' });
  const remains = s('g', { class: 'remains' },
    hat({ transform: `translate(${CENTER_X - 6} 188) rotate(-12) translate(-110 -37)` }),
    carrot({ transform: 'translate(18 143) rotate(8 110 74)' }),
    [[86, 214], [96, 218], [138, 216], [146, 212]].map(([cx, cy]) => s('circle', { cx, cy, r: 2.6, class: 'coal' })));
  const drips = s('g', { class: 'drips' });
  const sparkles = s('g', { class: 'sparkles' },
    [[52, 52], [168, 96], [60, 150], [162, 150]].map(([x, y]) => s('path', {
      d: `M${x} ${y - 6} L${x + 1.6} ${y - 1.6} L${x + 6} ${y} L${x + 1.6} ${y + 1.6} L${x} ${y + 6} L${x - 1.6} ${y + 1.6} L${x - 6} ${y} L${x - 1.6} ${y - 1.6} Z`,
    })));

  const title = s('title', {});
  const element = s('svg', {
    class: 'snowman-figure', viewBox: '0 0 220 240', role: 'img', 'aria-labelledby': 'snowman-figure-title',
  },
  title,
  s('defs', {}, s('linearGradient', { id: 'snowman-sky', x1: 0, y1: 0, x2: 0, y2: 1 },
    s('stop', { offset: '0%', class: 'sky-top' }), s('stop', { offset: '100%', class: 'sky-bottom' }))),
  s('rect', { x: 0, y: 0, width: 220, height: 240, rx: 18, fill: 'url(#snowman-sky)' }),
  s('g', { class: 'flakes' }, [[24, 30], [60, 18], [140, 24], [34, 120], [196, 130], [80, 60]].map(([cx, cy]) => s('circle', { cx, cy, r: 1.8 }))),
  sun,
  s('path', { d: `M0 ${GROUND_Y - 4} Q60 ${GROUND_Y - 14} 120 ${GROUND_Y - 6} T220 ${GROUND_Y - 8} V222 Q220 240 202 240 H18 Q0 240 0 222 Z`, class: 'ground' }),
  puddle, drips, Object.values(fallen), body, remains, sparkles);
  title.id = 'snowman-figure-title';

  return {
    element,
    /**
     * Shows stage `wrong` of `max`; `status` is the game's (`inProgress`, `won`, `lost`).
     */
    update(wrong, max, status) {
      const stage = meltStage(status === 'lost' ? max : wrong, max, status);
      const { melt } = stage;
      element.dataset.stage = String(Math.min(wrong, max));
      element.dataset.status = status;
      title.textContent = status === 'lost'
        ? 'The snowman has melted into a puddle.'
        : `The snowman, ${wrong} of ${max} wrong guesses: ${status === 'won' ? 'saved and happy' : `${Math.round(melt * 100)}% melted`}.`;
      body.style.transform = stage.lost ? 'scale(1.6, 0)' : `scale(${1 + 0.14 * melt}, ${1 - 0.42 * melt})`;
      body.classList.toggle('is-gone', stage.lost);
      remains.classList.toggle('is-shown', stage.lost);
      sparkles.classList.toggle('is-shown', status === 'won');
      for (const name of FALLING_PARTS) {
        const gone = stage.fallen.includes(name);
        parts[name].classList.toggle('is-gone', gone);
        fallen[name].classList.toggle('is-shown', gone && !stage.lost);
      }
      face.dataset.mood = stage.mood;
      const smile = {
        joyful: 'M100 78 Q110 91 120 78', happy: 'M102 79 Q110 86 118 79', worried: 'M102 81 Q110 81 118 81', sad: 'M102 84 Q110 77 118 84',
      };
      mouth.setAttribute('d', smile[stage.mood]);
      puddle.setAttribute('rx', String(melt === 0 ? 0 : 28 + 62 * melt));
      puddle.setAttribute('ry', String(melt === 0 ? 0 : 4 + 6 * melt));
      sunDisc.setAttribute('r', String(12 + 8 * melt));
      sunRays.setAttribute('transform', `scale(${1 + 0.45 * melt})`);
      const dripCount = stage.lost ? 0 : Math.round(melt * 8);
      if (drips.childElementCount !== dripCount) {
        drips.replaceChildren(...Array.from({ length: dripCount }, (_, index) => {
          const x = CENTER_X + (index % 2 === 0 ? -1 : 1) * (16 + ((index * 13) % 24));
          const y = GROUND_Y - 30 + ((index * 17) % 26) * (1 - 0.42 * melt);
          return s('path', { d: `M${x} ${y} q-3 5 0 7 q3 -2 0 -7 z`, class: 'drip' });
        }));
      }
    },
  };
}

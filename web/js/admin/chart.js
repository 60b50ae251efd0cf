// Line charts drawn as SVG by hand: the last `windowSeconds` of a timeline, time along x (now at the right), one
// path per series (broken where a value is missing), a few horizontal grid lines labelled with the chart's format.

const SVG = 'http://www.w3.org/2000/svg';
const PAD = { left: 44, right: 6, top: 6, bottom: 16 };

/** A round upper bound at or above `value` for the y axis: 1, 2, 2.5, 5 times a power of ten. */
export function niceMax(value) {
  if (!(value > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) {
    if (step * power >= value) return step * power;
  }
  return 10 * power;
}

/**
 * Path data for one series: `times` (seconds) and `values` mapped into a `width` x `height` box whose x spans
 * `start`..`end` and y spans 0..`yMax`. Missing values (null) break the line. Returns `{d, points}`.
 */
export function linePath(times, values, { start, end, yMax, width, height }) {
  const span = Math.max(end - start, 1);
  let d = '';
  let points = 0;
  let pen = false;
  for (let i = 0; i < times.length; i += 1) {
    const value = values[i];
    if (value === null || value === undefined || times[i] < start) {
      pen = false;
      continue;
    }
    const x = ((times[i] - start) / span) * width;
    const y = height - (Math.min(value, yMax) / yMax) * height;
    d += `${pen ? 'L' : 'M'}${x.toFixed(1)},${y.toFixed(1)}`;
    pen = true;
    points += 1;
  }
  return { d, points };
}

function node(name, attributes = {}, text) {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  if (text !== undefined) element.textContent = text;
  return element;
}

/**
 * Draws `series` ([{key, label, className}]) of `timeline` into `svg`, sized to the element's box. Sets
 * `data-points` (points drawn, all series) and `data-max` (the largest value in the window) for tests.
 */
export function drawChart(svg, timeline, series, { format, windowSeconds = 900 }) {
  const width = Math.max(svg.clientWidth || 300, 120);
  const height = Math.max(svg.clientHeight || 150, 60);
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  const times = timeline.columns.t ?? [];
  const end = times.length ? times[times.length - 1] : 0;
  const start = end - windowSeconds;
  let max = 0;
  for (const { key } of series) {
    const column = timeline.columns[key] ?? [];
    for (let i = 0; i < column.length; i += 1) {
      if (times[i] >= start && column[i] > max) max = column[i];
    }
  }
  const yMax = niceMax(max);
  const plot = { width: width - PAD.left - PAD.right, height: height - PAD.top - PAD.bottom };
  svg.replaceChildren();
  const frame = node('g', { transform: `translate(${PAD.left},${PAD.top})` });
  for (const fraction of [0, 0.5, 1]) {
    const y = plot.height - fraction * plot.height;
    frame.append(node('line', { class: 'grid-line', x1: 0, x2: plot.width, y1: y, y2: y }));
    frame.append(node('text', { class: 'axis-label', x: -6, y: y + 3, 'text-anchor': 'end' }, format(yMax * fraction)));
  }
  for (const minutes of [15, 10, 5]) {
    const x = plot.width - (minutes * 60 / windowSeconds) * plot.width;
    frame.append(node('text', { class: 'axis-label', x, y: plot.height + 12, 'text-anchor': 'middle' }, `−${minutes}m`));
  }
  frame.append(node('text', { class: 'axis-label', x: plot.width, y: plot.height + 12, 'text-anchor': 'end' }, 'now'));
  let points = 0;
  for (const { key, className } of series) {
    const path = linePath(times, timeline.columns[key] ?? [], { start, end, yMax, ...plot });
    points += path.points;
    if (path.d) frame.append(node('path', { class: `series ${className}`, d: path.d, 'data-key': key }));
  }
  svg.append(frame);
  svg.dataset.points = String(points);
  svg.dataset.max = String(max);
}

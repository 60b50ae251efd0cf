// Line charts drawn as SVG by hand: the last `windowSeconds` of a timeline, time along x (now at the right), one
// path per series (broken where a value is missing), a few horizontal grid lines labelled with the chart's format.

const SVG = 'http://www.w3.org/2000/svg';
const PAD = { left: 44, right: 6, top: 6, bottom: 16 };

/** Windows the x axis can span, in seconds: the shortest that holds the data (15 minutes at most). */
export const WINDOWS = [60, 120, 300, 600, 900];

/** A round upper bound at or above `value` for the y axis: 1, 2, 2.5, 5 times a power of ten (of 1024 for bytes). */
export function niceMax(value, binary = false) {
  if (!(value > 0)) return 1;
  if (binary && value >= 1024) {
    const unit = 1024 ** Math.floor(Math.log(value) / Math.log(1024));
    return unit * niceMax(value / unit);
  }
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) {
    if (step * power >= value) return step * power;
  }
  return 10 * power;
}

/** The window for data spanning `seconds`. */
export function windowFor(seconds) {
  return WINDOWS.find((window) => window >= seconds) ?? WINDOWS[WINDOWS.length - 1];
}

/** An x-axis label: 40 -> "−40s", 600 -> "−10m", 200 -> "−3m20s". */
export function ago(seconds) {
  if (seconds < 60) return `−${seconds}s`;
  const rest = seconds % 60;
  return `−${Math.floor(seconds / 60)}m${rest ? `${rest}s` : ''}`;
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
export function drawChart(svg, timeline, series, { format, binary = false }) {
  const width = Math.max(svg.clientWidth || 300, 120);
  const height = Math.max(svg.clientHeight || 150, 60);
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  const times = timeline.columns.t ?? [];
  const end = times.length ? times[times.length - 1] : 0;
  // The x axis grows with the data (a server that just started fills the plot), up to the 15 minutes kept.
  const windowSeconds = windowFor(times.length ? end - times[0] : 0);
  const start = end - windowSeconds;
  let max = 0;
  for (const { key } of series) {
    const column = timeline.columns[key] ?? [];
    for (let i = 0; i < column.length; i += 1) {
      if (times[i] >= start && column[i] > max) max = column[i];
    }
  }
  const yMax = niceMax(max, binary);
  const plot = { width: width - PAD.left - PAD.right, height: height - PAD.top - PAD.bottom };
  svg.replaceChildren();
  const frame = node('g', { transform: `translate(${PAD.left},${PAD.top})` });
  for (const fraction of [0, 0.5, 1]) {
    const y = plot.height - fraction * plot.height;
    frame.append(node('line', { class: 'grid-line', x1: 0, x2: plot.width, y1: y, y2: y }));
    frame.append(node('text', { class: 'axis-label', x: -6, y: y + 3, 'text-anchor': 'end' }, format(yMax * fraction)));
  }
  for (const fraction of [1, 2 / 3, 1 / 3]) {
    const x = plot.width - fraction * plot.width;
    frame.append(node('text', { class: 'axis-label', x, y: plot.height + 12, 'text-anchor': fraction === 1 ? 'start' : 'middle' },
      ago(Math.round(windowSeconds * fraction))));
  }
  frame.append(node('text', { class: 'axis-label', x: plot.width, y: plot.height + 12, 'text-anchor': 'end' }, 'now'));
  let points = 0;
  for (const { key, className, dashed } of series) {
    const path = linePath(times, timeline.columns[key] ?? [], { start, end, yMax, ...plot });
    points += path.points;
    if (path.d) frame.append(node('path', { class: `series ${className}${dashed ? ' dashed' : ''}`, d: path.d, 'data-key': key }));
  }
  svg.append(frame);
  svg.dataset.points = String(points);
  svg.dataset.max = String(max);
  svg.dataset.window = String(windowSeconds);
}

// The operator dashboard: asks for the token if it has none (or a wrong one), then follows the live feed and
// draws the plots, the tiles and the room table from it.

import * as api from './api.js';
import { drawChart } from './chart.js';
import { openFeed } from './feed.js';
import { bytes, compact, milliseconds } from './format.js';
import { createRoomPanel } from './room-panel.js';
import { fillGameFilter, gameName } from './games.js';
import { allGames } from '../core/game-registry.js';
import '../games.js';
import { COLUMNS, drawHeader, drawRows, filterRooms, roomsFromTable, sortRooms } from './room-table.js';
import { appendSample, fromHistory, keysWithPrefix, latest } from './timeline.js';
import { forget, save, takeToken, takeTokenFromHash } from './token.js';

const $ = (id) => document.getElementById(id);
const percent = (value) => `${compact(value)}%`;

/** The plots: title, unit, value format and series (`closes.*` added as codes appear). */
const CHARTS = [
  { id: 'connections', title: 'Open connections', format: compact, series: [['connections', 'open']] },
  { id: 'rooms', title: 'Rooms by game', format: compact, series: allGames().map((game) => [`rooms.${game.id}`, gameName(game.id)]) },
  { id: 'traffic', title: 'Moves and messages', unit: 'per second', format: compact,
    series: [['moves', 'moves'], ['messagesIn', 'messages in'], ['messagesOut', 'messages out']] },
  { id: 'bytes', title: 'Bytes', unit: 'per second', format: bytes, binary: true, series: [['bytesIn', 'in'], ['bytesOut', 'out']] },
  { id: 'latency', title: 'Move-to-patch fan-out', unit: 'ms', format: compact,
    series: [['fanoutP50', 'p50'], ['fanoutP99', 'p99'], ['fanoutMax', 'max (bucket bound)', true]], legendFormat: milliseconds },
  { id: 'failures', title: 'Handshake failures and closes', unit: 'per second', format: compact,
    series: [['handshakeFailures', 'handshake failures']], closes: true },
  { id: 'cpu', title: 'CPU', unit: '% of one core', format: percent, series: [['cpu', 'process']] },
  { id: 'rss', title: 'Memory', unit: 'resident', format: bytes, binary: true, series: [['rss', 'RSS']] },
];

const state = {
  token: takeToken(window.location, window.history, window.sessionStorage),
  timeline: null,
  rooms: [],
  sort: { key: 'code', direction: 'ascending' },
  feed: null,
};

function closeLabel(key) {
  const code = key.slice('closes.'.length);
  return code === '0' ? 'closes, other codes' : `close ${code}`;
}

function seriesOf(chart) {
  const series = chart.series.map(([key, label, dashed]) => ({ key, label, dashed }));
  if (chart.closes && state.timeline) {
    for (const key of keysWithPrefix(state.timeline, 'closes.')) series.push({ key, label: closeLabel(key) });
  }
  return series.map((entry, index) => ({ ...entry, className: `s${(index % 6) + 1}` }));
}

function buildCharts() {
  $('charts').replaceChildren(...CHARTS.map((chart) => {
    const card = document.createElement('figure');
    card.className = 'chart';
    card.id = `chart-${chart.id}`;
    card.style.margin = '0';
    const head = document.createElement('figcaption');
    head.className = 'chart-head';
    const title = document.createElement('span');
    title.className = 'chart-title';
    title.textContent = chart.title;
    const unit = document.createElement('span');
    unit.className = 'chart-unit';
    unit.textContent = chart.unit ?? '';
    head.append(title, unit);
    const legend = document.createElement('div');
    legend.className = 'legend';
    const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', `${chart.title}, the last 15 minutes`);
    card.append(head, legend, svg);
    return card;
  }));
}

function drawCharts() {
  if (!state.timeline) return;
  for (const chart of CHARTS) {
    const card = $(`chart-${chart.id}`);
    const series = seriesOf(chart);
    const format = chart.legendFormat ?? chart.format;
    card.querySelector('.legend').replaceChildren(...series.map(({ key, label, className, dashed }) => {
      const item = document.createElement('span');
      item.className = `legend-item ${className}`;
      const swatch = document.createElement('span');
      swatch.className = `swatch${dashed ? ' dashed' : ''}`;
      const text = document.createElement('span');
      text.className = 'muted';
      text.textContent = `${label} ${format(latest(state.timeline, key))}`;
      item.append(swatch, text);
      return item;
    }));
    drawChart(card.querySelector('svg'), state.timeline, series, { format: chart.format, binary: chart.binary });
  }
}

function drawTiles() {
  const timeline = state.timeline;
  if (!timeline) return;
  const rooms = keysWithPrefix(timeline, 'rooms.').reduce((sum, key) => sum + (latest(timeline, key) ?? 0), 0);
  $('now-connections').textContent = compact(latest(timeline, 'connections'));
  $('now-rooms').textContent = compact(rooms);
  $('now-moves').textContent = compact(latest(timeline, 'moves'));
  $('now-p99').textContent = milliseconds(latest(timeline, 'fanoutP99'));
  $('now-cpu').textContent = percent(latest(timeline, 'cpu'));
  $('now-rss').textContent = bytes(latest(timeline, 'rss'));
}

function drawTable() {
  const filtered = filterRooms(state.rooms, $('room-filter').value, $('room-game').value);
  const sorted = sortRooms(filtered, state.sort.key, state.sort.direction);
  const drawn = drawRows($('rooms-body'), sorted, (code) => panel.open(code));
  const total = state.rooms.length;
  $('rooms-count').textContent = filtered.length === total
    ? `${total}${drawn < total ? ` · showing ${drawn}` : ''}`
    : `${filtered.length} of ${total}${drawn < filtered.length ? ` · showing ${drawn}` : ''}`;
  $('rooms-empty').hidden = sorted.length > 0;
  $('rooms-empty').textContent = total ? 'No rooms match the filter.' : 'No rooms yet.';
}

function sortBy(key) {
  const numeric = COLUMNS.find((column) => column.key === key)?.numeric;
  state.sort = state.sort.key === key
    ? { key, direction: state.sort.direction === 'ascending' ? 'descending' : 'ascending' }
    : { key, direction: numeric ? 'descending' : 'ascending' };
  drawHeader($('rooms-header'), state.sort, sortBy);
  drawTable();
}

function setStatus(status) {
  const pill = $('feed-status');
  pill.dataset.status = status;
  pill.textContent = { live: 'Live', reconnecting: 'Reconnecting…', closed: 'Not connected' }[status] ?? status;
}

function askForToken(message) {
  state.feed?.stop();
  state.feed = null;
  $('dashboard').hidden = true;
  $('forget-token').hidden = true;
  $('token-card').hidden = false;
  $('token-error').hidden = !message;
  $('token-error').textContent = message ?? '';
  $('token-input').focus();
}

/** Checks the token over HTTP (a refused WebSocket says nothing about why), then follows the feed. */
async function start(token) {
  try {
    state.rooms = roomsFromTable(await api.rooms(token));
  } catch (error) {
    if (error instanceof api.Unauthorized) {
      forget(window.sessionStorage);
      state.token = null;
      askForToken(token ? 'That token is not this server\'s admin token.' : null);
      return;
    }
    throw error;
  }
  state.token = token;
  save(window.sessionStorage, token);
  $('token-card').hidden = true;
  $('dashboard').hidden = false;
  $('forget-token').hidden = false;
  drawTable();
  state.feed = openFeed({
    token,
    onStatus: setStatus,
    onHistory(message) {
      state.timeline = fromHistory(message.timeline);
      state.rooms = roomsFromTable(message.rooms);
      drawAll();
    },
    onSample(message) {
      if (state.timeline) appendSample(state.timeline, message.sample);
      state.rooms = roomsFromTable(message.rooms);
      drawAll();
    },
    onRefused() {
      // The token may have changed with a restart: if so, ask again instead of retrying for ever.
      api.rooms(token).catch((error) => {
        if (error instanceof api.Unauthorized) askForToken('The server no longer accepts this token (did it restart?).');
      });
    },
  });
}

function drawAll() {
  drawTiles();
  drawCharts();
  drawTable();
}

const panel = createRoomPanel({
  dialog: $('room-panel'),
  confirm: $('confirm'),
  getToken: () => state.token,
  onUnauthorized: () => askForToken('The server no longer accepts this token.'),
  onChanged: () => {
    api.rooms(state.token).then((table) => {
      state.rooms = roomsFromTable(table);
      drawTable();
    }).catch(() => {});
  },
});

// Themes as the player app: system, light or dark, kept in the same preferences (js/boot/theme.js applies them).
const THEMES = ['system', 'light', 'dark'];
function showTheme() {
  $('theme-toggle').textContent = `Theme: ${document.documentElement.dataset.theme || 'system'}`;
}
$('theme-toggle').addEventListener('click', () => {
  const root = document.documentElement;
  const next = THEMES[(THEMES.indexOf(root.dataset.theme) + 1) % THEMES.length];
  root.dataset.theme = next;
  try {
    const prefs = JSON.parse(window.localStorage.getItem('wordrooms.prefs') || '{}') || {};
    window.localStorage.setItem('wordrooms.prefs', JSON.stringify({ ...prefs, theme: next }));
  } catch {
    // Storage refused: the choice lasts for this page.
  }
  showTheme();
  drawCharts();
});
showTheme();

$('token-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const token = $('token-input').value.trim();
  $('token-input').value = '';
  start(token);
});
$('forget-token').addEventListener('click', () => {
  forget(window.sessionStorage);
  state.token = null;
  askForToken(null);
});
// A dashboard link pasted into a tab already on /admin only changes the fragment: no reload, so take it here.
window.addEventListener('hashchange', () => {
  const token = takeTokenFromHash(window.location, window.history, window.sessionStorage);
  if (token === null || (token === state.token && state.feed)) return;
  state.feed?.stop();
  state.feed = null;
  start(token);
});
$('room-filter').addEventListener('input', drawTable);
fillGameFilter($('room-game'));
$('room-game').addEventListener('change', drawTable);
window.addEventListener('resize', () => drawCharts());

buildCharts();
drawHeader($('rooms-header'), state.sort, sortBy);
if (state.token) start(state.token); else askForToken(null);

// Number formats of the dashboard: rates, bytes, durations and latencies, short enough for a tile or an axis.

/** 1234 -> "1.2k", 0.5 -> "0.5", 12 -> "12". */
export function compact(value) {
  if (value === null || value === undefined || Number.isNaN(value)) return '–';
  const abs = Math.abs(value);
  if (abs >= 1e9) return `${trim(value / 1e9)}G`;
  if (abs >= 1e6) return `${trim(value / 1e6)}M`;
  if (abs >= 1e4) return `${Math.round(value / 1e3)}k`;
  if (abs >= 1e3) return `${trim(value / 1e3)}k`;
  if (abs >= 100 || Number.isInteger(value)) return String(Math.round(value));
  // One decimal from 10 up: an axis halfway to 25 reads 12.5, not 13.
  return trim(value);
}

/** 1536 -> "1.5 KiB". */
export function bytes(value) {
  if (value === null || value === undefined || Number.isNaN(value)) return '–';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let scaled = value;
  let unit = 0;
  while (Math.abs(scaled) >= 1024 && unit < units.length - 1) {
    scaled /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? Math.round(scaled) : trim(scaled)} ${units[unit]}`;
}

/** Milliseconds: 0.412 -> "0.41 ms", 25 -> "25 ms". */
export function milliseconds(value) {
  if (value === null || value === undefined || Number.isNaN(value)) return '–';
  if (value >= 1000) return `${trim(value / 1000)} s`;
  return `${value >= 10 ? Math.round(value) : trim(value)} ms`;
}

/** Seconds as an age: 75 -> "1m 15s", 7300 -> "2h 1m". */
export function age(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${s % 60}s`;
  if (s < 86400) return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
  return `${Math.floor(s / 86400)}d ${Math.floor((s % 86400) / 3600)}h`;
}

function trim(value) {
  const fixed = Math.abs(value) >= 100 ? value.toFixed(0) : Math.abs(value) >= 10 ? value.toFixed(1) : value.toFixed(2);
  return fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed;
}

// Runs in <head>, before the first paint: applies the stored appearance and accent so the page never flashes in
// the wrong theme. A classic script on purpose (modules are deferred); it declares nothing global. The key and the
// allowed values mirror js/core/prefs.js.
(function applyStoredTheme() {
  var root = document.documentElement;
  var themes = ['system', 'light', 'dark'];
  var accents = ['blue', 'teal', 'green', 'purple', 'rose', 'orange'];
  var prefs = {};
  try {
    prefs = JSON.parse(window.localStorage.getItem('wordrooms.prefs') || '{}') || {};
  } catch (error) {
    prefs = {};
  }
  root.dataset.theme = themes.indexOf(prefs.theme) >= 0 ? prefs.theme : 'system';
  root.dataset.accent = accents.indexOf(prefs.accent) >= 0 ? prefs.accent : 'blue';
}());

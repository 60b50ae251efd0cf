// The live feed `/admin/ws?token=TOKEN` (a browser cannot set headers on a WebSocket): the history once, then a
// sample and the room table every second. Reconnects with a growing delay; `onStatus` hears `live`,
// `reconnecting` and `closed`.

export function openFeed({ token, onHistory, onSample, onStatus, onRefused, WebSocketClass = WebSocket,
  timers = globalThis, location = globalThis.location }) {
  let socket = null;
  let attempt = 0;
  let retry = null;
  let stopped = false;

  function connect() {
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const created = new WebSocketClass(`${scheme}//${location.host}/admin/ws?token=${encodeURIComponent(token)}`);
    socket = created;
    created.onmessage = (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (message.type === 'history') {
        attempt = 0;
        onStatus('live');
        onHistory(message);
      } else if (message.type === 'sample') {
        onSample(message);
      }
    };
    created.onclose = () => {
      if (socket !== created || stopped) return;
      socket = null;
      attempt += 1;
      onStatus('reconnecting');
      // A refused upgrade looks like any failed socket here; the page checks the token over HTTP first.
      onRefused?.();
      retry = timers.setTimeout(connect, Math.min(8000, 500 * 2 ** Math.min(attempt, 4)));
    };
  }

  connect();
  return {
    stop() {
      stopped = true;
      if (retry !== null) timers.clearTimeout(retry);
      socket?.close();
      onStatus('closed');
    },
  };
}

"""The lobby's public room list with 0, 3 and 120 rooms, on a phone (360 px) and a desktop (1280 px), in both themes.

Runs its own server (the suites' shared one holds other suites' rooms, and 120 more would push their rooms off the
first page). A helper page opens one socket per room and creates them; the viewers' lists follow live: the first
page whole once (`lobby`), then only what changed (`lobby-delta`), and "More rooms" fetches the next page of
`GET /api/rooms`. Screenshots `lobby-*.png` in --artifacts.

Usage: lobby_test.py --base-url http://127.0.0.1:PORT --repo REPO_ROOT --artifacts DIR
"""

import json
import os
import subprocess
import time
import urllib.request

import browser_support

# Notes the type and size of every message the app's sockets receive.
MESSAGE_RECORDER = """
(() => {
  const Native = window.WebSocket;
  window.__received = [];
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (event) => {
        let type = null;
        try { type = JSON.parse(event.data).type; } catch {}
        window.__received.push({ type, bytes: event.data.length });
      });
    }
  };
})();
"""

# Opens `count` sockets that each create a public room (every fourth a Word Scramble room) and stay in it.
CREATE_ROOMS = """
const [count, first, done] = [arguments[0], arguments[1], arguments[arguments.length - 1]];
window.__hosts = window.__hosts || [];
let welcomed = 0;
for (let index = first; index < first + count; index += 1) {
  const socket = new WebSocket(location.origin.replace('http', 'ws') + '/ws');
  window.__hosts.push(socket);
  socket.onopen = () => socket.send(JSON.stringify({
    type: 'create', game: index % 4 === 3 ? 'scramble' : 'snowman', name: `Host ${index}` }));
  socket.onmessage = (event) => {
    if (JSON.parse(event.data).type === 'welcome' && ++welcomed === count) done(welcomed);
  };
}
"""


def start_server(repo):
    """The server binary next to the bots the runner built (or the package's debug build), on a free port."""
    bots = os.environ.get("WORDROOMS_BOTS")
    binary = os.path.join(os.path.dirname(bots), "wordrooms") if bots else os.path.join(repo, ".build/debug/wordrooms")
    process = subprocess.Popen([binary, "--host", "127.0.0.1", "--port", "0", "--web", os.path.join(repo, "web")],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    line = process.stdout.readline()
    prefix = "WordRooms is running at "
    if not line.startswith(prefix):
        process.kill()
        raise RuntimeError(f"the server did not start: {line!r}")
    return process, line[len(prefix):].split("/ ")[0]


class Viewer(browser_support.Page):
    def __init__(self, name, base_url, width, phone):
        super().__init__(name, base_url, width=width, height=760 if phone else 900, phone=phone,
                         init_script=MESSAGE_RECORDER)
        self.slug = "360" if phone else "1280"

    def set_theme(self, theme):
        self.js(f"localStorage.setItem('wordrooms.prefs', JSON.stringify({{theme: '{theme}', name: 'Viewer'}}))")
        self.driver.refresh()
        self.wait(lambda: self.js("return document.documentElement.dataset.theme") == theme, f"the {theme} theme")
        self.wait_lobby()

    def wait_lobby(self):
        self.wait(lambda: self.visible(".empty-state") or self.visible(".room-list"), "the room list or its empty state")

    def rows(self):
        return self.js("return document.querySelectorAll('#rooms-panel .room-row').length")

    def received(self, kind):
        return self.js("return window.__received.filter((m) => m.type === arguments[0])", kind)


def run(suite, args):
    checks = suite.checks
    server, base = start_server(args.repo)
    try:
        maker = suite.add(browser_support.Page("Maker", base, width=800, height=600))
        maker.open("/")
        viewers = [suite.add(Viewer("Phone", base, 360, True)), suite.add(Viewer("Desktop", base, 1280, False))]
        for viewer in viewers:
            viewer.open("/")
            viewer.wait_lobby()

        def shots(name, scroll_to=None):
            for viewer in viewers:
                for theme in ("light", "dark"):
                    viewer.set_theme(theme)
                    if scroll_to:
                        viewer.js("document.querySelector(arguments[0]).scrollIntoView({block: 'center'})", scroll_to)
                        time.sleep(0.35)
                    suite.shot(viewer, f"{name}-{viewer.slug}-{theme}", top=scroll_to is None)

        def no_rooms():
            for viewer in viewers:
                assert viewer.visible(".empty-state"), f"{viewer.name}: the empty state"
                assert not viewer.visible("#more-rooms"), f"{viewer.name}: no More rooms button"
            shots("00-rooms")
        checks.run("with no public rooms the lobby says so and offers to create one", no_rooms)

        def steppers_from_server():
            with urllib.request.urlopen(base + "/api/config", timeout=5) as response:
                games = json.load(response)["games"]
            # The unit tests' copy holds the games they need (a new game's own tests may bring their own).
            with open(os.path.join(args.repo, "Tests/WebClient/server-games.json"), encoding="utf-8") as copy:
                for game in json.load(copy):
                    assert game in games, f"Tests/WebClient/server-games.json: {game['id']} differs from GET /api/config"
            desktop = viewers[1]
            desktop.click("#create-room")
            desktop.wait_visible("#create-name")
            for game in games:
                desktop.js("document.querySelector(`input[name=create-game][value=${arguments[0]}]`).click()", game["id"])
                shown = desktop.js("""return [...document.querySelectorAll('#create-dialog .stepper')].map((s) => {
                    const v = s.querySelector('.stepper-value');
                    return [s.dataset.setting, Number(v.getAttribute('aria-valuemin')), Number(v.getAttribute('aria-valuemax'))];
                  });""")
                wanted = [[spec["key"], spec["min"], spec["max"]] for spec in game["settings"]]
                assert shown == wanted, f"{game['id']}: steppers {shown}, server {wanted}"
            desktop.js("document.querySelector('input[name=create-game]').click()")
            desktop.press(browser_support.Keys.ESCAPE)
            desktop.wait(lambda: not desktop.visible("#create-dialog"), "the dialog to close")
        checks.run("the create dialog's steppers have the bounds GET /api/config sends (and the unit tests' copy)",
                   steppers_from_server)

        def create(count, first):
            made = maker.driver.execute_async_script(CREATE_ROOMS, count, first)
            assert made == count, made

        def three_rooms():
            create(3, 0)
            for viewer in viewers:
                viewer.wait(lambda v=viewer: v.rows() == 3, f"{viewer.name}: three Snowman rooms live")
                assert viewer.text("#tab-scramble .tab-count") == "0", viewer.text("#tab-scramble .tab-count")
                assert viewer.text("#tab-snowman .tab-count") == "3"
                deltas = viewer.received("lobby-delta")
                assert deltas, f"{viewer.name}: no lobby-delta received"
                assert not viewer.visible("#more-rooms")
            shots("03-rooms")
        checks.run("three new rooms appear live, as deltas", three_rooms)

        def hundred_twenty_rooms():
            create(117, 3)
            for viewer in viewers:
                viewer.wait(lambda v=viewer: v.text("#tab-snowman .tab-count") == "90", f"{viewer.name}: 90 Snowman rooms",
                            timeout=20)
                viewer.wait(lambda v=viewer: v.rows() == 50, f"{viewer.name}: the first page of 50")
                viewer.wait_visible("#more-rooms")
                assert "40 more" in viewer.text("#more-rooms"), viewer.text("#more-rooms")
                # The page came whole once; every update since was a delta of at most the page's 50 rooms (about
                # 110 bytes each), never the list of all 120.
                wholes = viewer.received("lobby")
                deltas = viewer.received("lobby-delta")
                assert len(wholes) == 1, wholes
                assert max(delta["bytes"] for delta in deltas) < 50 * 140, max(delta["bytes"] for delta in deltas)
            shots("120-rooms")
            shots("120-rooms-more", scroll_to="#more-rooms")
        checks.run("120 rooms: the first 50 live, with More rooms", hundred_twenty_rooms)

        def more_rooms():
            for viewer in viewers:
                viewer.js("document.querySelector('#more-rooms').scrollIntoView({block: 'center'})")
                viewer.click("#more-rooms")
                viewer.wait(lambda v=viewer: v.rows() == 90, f"{viewer.name}: all 90 Snowman rooms")
                assert not viewer.visible("#more-rooms"), "the button goes once every room is shown"
                viewer.click("#tab-scramble")
                viewer.wait(lambda v=viewer: v.rows() == 30, f"{viewer.name}: the 30 Word Scramble rooms")
                viewer.click("#tab-snowman")
                viewer.wait(lambda v=viewer: v.rows() == 50, f"{viewer.name}: back to the first Snowman page")
            viewers[0].set_theme("dark")
            viewers[0].click("#tab-scramble")
            viewers[0].wait(lambda: viewers[0].rows() == 30, "the Word Scramble rooms")
            suite.shot(viewers[0], "120-rooms-scramble-360-dark")
        checks.run("More rooms shows the next page; tabs switch the page followed", more_rooms)
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    browser_support.main(run, __doc__, shot_prefix="lobby-")

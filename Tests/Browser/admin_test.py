"""The operator dashboard at /admin (issue 19), in headless Chromium.

Without the token every admin endpoint answers 401 (checked over plain HTTP and a plain WebSocket) and the page asks
for it; a wrong token is refused with a message; the server's own start line carries the working link
(`Admin: .../admin#token=...`), which opens the dashboard and leaves the token out of the address bar. Under a
small bot load (`wordrooms-bots`, three rooms on loopback) the plots move between two moments (more points, moves
above zero), and the room table sorts and filters. On a room of its own the operator locks it (a join is refused
with `room-locked`), removes a member (who gets `kicked` from the operator) and closes it (the player in the
browser sees "Room closed"). Screenshots (admin-*.png) in both themes at 1280x800 and 390x844 go to ARTIFACTS/admin/.

The token comes from the server's start lines in ARTIFACTS/server.log (run-browser-tests.sh writes it there), or
from $WORDROOMS_ADMIN_TOKEN.

Usage: admin_test.py --base-url http://127.0.0.1:PORT --repo REPO_ROOT --artifacts DIR
"""

import json
import os
import re
import subprocess
import time
import urllib.error
import urllib.request

import websocket
import browser_support

DESKTOP = (1280, 800)
PHONE = (390, 844)


class Page(browser_support.Page):
    # The page checks a wrong token on purpose, and Chromium logs the 401.
    expected_console = browser_support.Page.expected_console + ("status of 401",)

    def chart(self, name):
        return self.js("const s = document.querySelector(`#chart-${arguments[0]} svg`);"
                       "return s ? {points: Number(s.dataset.points || 0), max: Number(s.dataset.max || 0),"
                       "paths: s.querySelectorAll('path').length} : null;", name)

    def row_codes(self):
        return self.js("return [...document.querySelectorAll('#rooms-body tr')].map((r) => r.dataset.code)")

    def column(self, index):
        return self.js("return [...document.querySelectorAll('#rooms-body tr')]"
                       ".map((r) => r.children[arguments[0]].textContent)", index)

    def confirm(self):
        self.wait_visible("#confirm-ok")
        self.find("#confirm-ok").click()
        self.wait(lambda: not self.js("return document.querySelector('#confirm').open"), "the confirmation to close")


def admin_link(artifacts):
    """The `Admin:` link of the server's start lines, and its token."""
    token = os.environ.get("WORDROOMS_ADMIN_TOKEN")
    log = os.path.join(artifacts, "server.log")
    if os.path.exists(log):
        with open(log, encoding="utf-8") as handle:
            for line in handle:
                match = re.match(r"^Admin: (\S+)#token=([A-Za-z0-9._~-]+)$", line.strip())
                if match:
                    return match.group(0)[len("Admin: "):], match.group(2)
    if token:
        return None, token
    raise AssertionError("no 'Admin: ...#token=' line in server.log and no $WORDROOMS_ADMIN_TOKEN")


def http(base_url, path, method="GET", token=None):
    request = urllib.request.Request(base_url + path, method=method)
    if token is not None:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def bots_binary(repo):
    given = os.environ.get("WORDROOMS_BOTS")
    if given and os.access(given, os.X_OK):
        return given
    for build in ("release", "debug"):
        path = os.path.join(repo, ".build", build, "wordrooms-bots")
        if os.access(path, os.X_OK):
            return path
    raise AssertionError("no wordrooms-bots binary in .build/release or .build/debug (swift build --product wordrooms-bots)")


def run(suite, args):
    # A folder of its own: the suites with no screenshot prefix clear every PNG directly in artifacts/.
    suite.artifacts = os.path.join(args.artifacts, "admin")
    os.makedirs(suite.artifacts, exist_ok=True)
    for stale in os.listdir(suite.artifacts):
        if stale.endswith(".png"):
            os.remove(os.path.join(suite.artifacts, stale))
    checks = suite.checks
    shot = suite.shot
    base = args.base_url
    link, token = suite.require(checks.run("the server's start lines carry the dashboard link with its token",
                                           lambda: admin_link(args.artifacts)))
    raws = []
    bots = None

    # --- 401 without the token -----------------------------------------------------------------------------------
    def endpoints_refuse_without_token():
        paths = [("GET", "/admin/api/timeline"), ("GET", "/admin/api/rooms"), ("GET", "/admin/api/rooms/QHTW"),
                 ("POST", "/admin/api/rooms/QHTW/lock"), ("POST", "/admin/api/rooms/QHTW/close"),
                 ("POST", "/admin/api/rooms/QHTW/members/p1/remove"), ("GET", "/admin/ws")]
        for method, path in paths:
            for presented in (None, "not-the-token-at-all-0000"):
                status, body = http(base, path, method, presented)
                assert status == 401, f"{method} {path} with {presented!r}: {status}"
                assert "admin token" in body, body
        status, _ = http(base, "/admin/api/rooms", token=token)
        assert status == 200, status
        ws_base = base.replace("http", "ws", 1)
        for query in ("", "?token=wrong-token-wrong-token"):
            try:
                websocket.create_connection(ws_base + "/admin/ws" + query, timeout=5).close()
                raise AssertionError(f"/admin/ws{query} opened")
            except websocket.WebSocketBadStatusException as error:
                assert error.status_code == 401, error.status_code
        feed = websocket.create_connection(ws_base + "/admin/ws?token=" + token, timeout=5)
        first = json.loads(feed.recv())
        feed.close()
        assert first["type"] == "history" and "connections" in first["timeline"], first.keys()
    checks.run("every admin endpoint answers 401 without the token or with a wrong one (HTTP and WebSocket)",
               endpoints_refuse_without_token)

    op = suite.add(Page("operator", base, *DESKTOP, exact_viewport=True))
    phone = suite.add(Page("phone", base, *PHONE, phone=True))

    def page_asks_for_the_token():
        op.open("/admin")
        op.wait_visible("#token-card")
        assert not op.visible("#dashboard")
        shot(op, "admin-01-token-light")
        op.type_into("#token-input", "wrong-token-wrong-token", enter=True)
        op.wait_visible("#token-error")
        assert "not this server" in op.text("#token-error"), op.text("#token-error")
        op.type_into("#token-input", token, enter=True)
        op.wait_visible("#dashboard")
        op.wait(lambda: op.find("#feed-status").get_attribute("data-status") == "live", "the live feed")
    checks.run("/admin without the token asks for it, refuses a wrong one, opens with the right one",
               page_asks_for_the_token)

    def link_opens_the_dashboard():
        assert link, "no link"
        phone.open(link[len(base):])
        phone.wait_visible("#dashboard")
        phone.wait(lambda: phone.find("#feed-status").get_attribute("data-status") == "live", "the live feed")
        assert "token" not in phone.js("return location.href"), "the token left the address bar"
        assert phone.js("return sessionStorage.getItem('wordrooms.adminToken')") == token
        phone.open("/admin")
        phone.wait_visible("#dashboard")
    checks.run("the start line's /admin#token= link opens the dashboard, the token moves to sessionStorage",
               link_opens_the_dashboard)

    # --- Plots under a bot load ------------------------------------------------------------------------------------
    def plots_move_under_load():
        nonlocal bots
        before = {name: op.chart(name) for name in ("connections", "traffic", "latency")}
        bots = subprocess.Popen(
            [bots_binary(args.repo), "--url", base.replace("http", "ws", 1), "--rooms", "3", "--players", "3",
             "--rate", "2", "--duration", "40", "--grace", "1", "--seed", "19"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        op.wait(lambda: len(op.row_codes()) >= 3, "three rooms in the table", timeout=15)
        op.wait(lambda: op.chart("traffic")["max"] > 0 and op.chart("connections")["max"] >= 9,
                "moves and nine connections on the plots", timeout=15)
        first = {name: op.chart(name) for name in ("connections", "traffic", "latency")}
        time.sleep(3)
        second = {name: op.chart(name) for name in ("connections", "traffic", "latency")}
        for name in ("connections", "traffic"):
            assert second[name]["points"] > first[name]["points"] >= before[name]["points"], (name, before, first, second)
        assert second["latency"]["points"] > 0 and second["latency"]["max"] > 0, second["latency"]
        assert op.text("#now-connections") not in ("–", "0"), op.text("#now-connections")
    checks.run("under a bot load the plots gain points every second and show the moves and the fan-out latency",
               plots_move_under_load)

    def table_sorts_and_filters():
        op.wait(lambda: len(op.row_codes()) >= 3, "rooms")
        op.find("#rooms-header th[data-key='code'] button").click()
        codes = op.row_codes()
        assert codes == sorted(codes, reverse=True), codes
        assert op.find("#rooms-header th[data-key='code']").get_attribute("aria-sort") == "descending"
        op.find("#rooms-header th[data-key='movesPerMinute'] button").click()
        moves = [float(value.replace("k", "e3")) for value in op.column(6)]
        assert moves == sorted(moves, reverse=True), moves
        # Who is online out of the seats held.
        online = [re.fullmatch(r"(\d+) of (\d+)", value) for value in op.column(4)]
        assert online and all(online), op.column(4)
        assert all(int(m[1]) <= int(m[2]) for m in online) and any(int(m[1]) > 0 for m in online), op.column(4)
        target = codes[0]
        op.type_into("#room-filter", target.lower())
        op.wait(lambda: op.row_codes() == [target], f"only {target}")
        assert "1 of" in op.text("#rooms-count"), op.text("#rooms-count")
        op.type_into("#room-filter", "no-such-room-here")
        op.wait_visible("#rooms-empty")
        op.find("#room-filter").clear()
        op.js("document.querySelector('#room-filter').dispatchEvent(new Event('input'))")
        op.wait(lambda: len(op.row_codes()) >= 3, "every room again")
    checks.run("the room table sorts by column (both ways) and filters by text", table_sorts_and_filters)

    # --- Room actions -----------------------------------------------------------------------------------------------
    bob = suite.add(Page("bob", base, *DESKTOP, exact_viewport=True))
    room = {}

    def a_room_with_people():
        host = browser_support.RawClient(base)
        raws.append(host)
        host.send({"type": "create", "game": "snowman", "name": "Hostess", "public": False})
        welcome = host.until(lambda m: m.get("type") == "welcome")
        # A private room: joins need its key, which its link carries in the fragment.
        room["code"], room["key"] = welcome["code"], welcome["key"]
        room["host"] = host
        cleo = browser_support.RawClient(base)
        raws.append(cleo)
        cleo.send({"type": "join", "code": room["code"], "key": room["key"], "name": "Cleo"})
        room["cleo_id"] = cleo.until(lambda m: m.get("type") == "welcome")["you"]
        room["cleo"] = cleo
        bob.open(f"/r/{room['code']}#k={room['key']}")
        bob.wait_visible("#name-form")
        bob.type_into("#name-input", "Bob", enter=True)
        bob.wait_visible("#word .tile")
        host.drain_in_background()
        op.type_into("#room-filter", room["code"])
        op.wait(lambda: op.row_codes() == [room["code"]], "the new room in the table")
        op.wait(lambda: op.column(2) == ["3"], "three players")
        op.find(f"#rooms-body tr[data-code='{room['code']}']").click()
        op.wait_visible("#room-panel")
        op.wait(lambda: len(op.finds("#panel-members li[data-member]")) == 3, "three members in the panel")
        assert '"code"' in op.text("#panel-state"), "the state as JSON"
        return True
    suite.require(checks.run("a room's panel lists its members and its state", a_room_with_people))

    def lock_refuses_a_join():
        op.click("#panel-lock")
        assert "Lock room" in op.text("#confirm-title")
        shot(op, "admin-04-confirm-lock", top=False)
        op.confirm()
        op.wait(lambda: op.text("#panel-lock") == "Unlock", "Unlock")
        op.wait(lambda: "locked" in op.text("#panel-summary"), "locked in the summary")
        eve = browser_support.RawClient(base)
        raws.append(eve)
        eve.send({"type": "join", "code": room["code"], "key": room["key"], "name": "Eve"})
        refusal = eve.until(lambda m: m.get("type") in ("welcome", "error"))
        assert refusal.get("code") == "room-locked", refusal
    checks.run("Lock (confirmed) locks the room: a new join gets room-locked", lock_refuses_a_join)

    def remove_a_member():
        op.find(f"#panel-members li[data-member='{room['cleo_id']}'] button").click()
        assert "Remove Cleo" in op.text("#confirm-title")
        op.confirm()
        op.wait(lambda: len(op.finds("#panel-members li[data-member]")) == 2, "two members left")
        error = room["cleo"].until(lambda m: m.get("type") == "error")
        assert error["code"] == "kicked" and "operator" in error["message"], error
        closed = room["cleo"].until(lambda m: m.get("type") == "close")
        assert closed["code"] == 4001, closed
        shot(op, "admin-05-panel-light", top=False)
    checks.run("Remove (confirmed) takes a member out: kicked by the operator, close 4001", remove_a_member)

    def close_the_room():
        op.click("#panel-close-room")
        op.confirm()
        op.wait(lambda: not op.js("return document.querySelector('#room-panel').open"), "the panel to close")
        bob.wait_visible("#room-status-title")
        assert bob.text("#room-status-title") == "Room closed", bob.text("#room-status-title")
        assert "operator closed" in bob.text("#room-status-message"), bob.text("#room-status-message")
        # The room is gone: no "Try again" (it could only find "Room not found"), a new room instead.
        assert not bob.visible("#status-retry"), "no Try again for a closed room"
        assert bob.visible("#status-create") and bob.visible("#status-back"), "Create a room and Back offered"
        shot(bob, "admin-06-player-room-closed")
        op.wait_visible("#rooms-empty", timeout=5)
        status, _ = http(base, f"/admin/api/rooms/{room['code']}", token=token)
        assert status == 404, status
        op.find("#room-filter").clear()
        op.js("document.querySelector('#room-filter').dispatchEvent(new Event('input'))")
    checks.run("Close room (confirmed) ends it: the player sees 'Room closed', the room is gone", close_the_room)

    # --- Screenshots in both themes, both sizes --------------------------------------------------------------------
    def screenshots():
        for theme in ("light", "dark"):
            for page, size in ((op, "desktop"), (phone, "phone")):
                page.theme(theme)
                page.js("window.dispatchEvent(new Event('resize'))")
                time.sleep(0.3)
                shot(page, f"admin-02-{size}-{theme}")
                page.js("document.querySelector('#rooms-title').scrollIntoView({block: 'start'})")
                time.sleep(0.3)
                shot(page, f"admin-03-{size}-{theme}-rooms", top=False)
        width = phone.js("return document.documentElement.scrollWidth")
        assert width <= PHONE[0], f"the phone page is {width} px wide"
    checks.run("screenshots in both themes at 1280x800 and 390x844; the phone page does not scroll sideways",
               screenshots)

    for raw in raws:
        raw.close()
    if bots:
        bots.kill()
        bots.wait()


if __name__ == "__main__":
    browser_support.main(run, "The operator dashboard at /admin, in headless Chromium.")

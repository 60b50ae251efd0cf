"""Seats in Chromium (issue 43): one person keeps one seat across a second tab and a closed tab, a frozen or cached
page is away within seconds and its turn passes, a lost seat keeps the browser's member id and says so, and a page
recovers by itself from minutes of server downtime.

Starts its own server (short --silence-seconds, --away-turn-seconds and --resume-grace, a data directory so that
a restart keeps the room), since it stops and restarts it on the same port."""

import os
import re
import shutil
import signal
import subprocess
import tempfile
import time

from selenium import webdriver

import browser_support
from snowman_solver import FREQUENCY

SHOT_PREFIX = "seats-"
# The screenshots' screens: (label, width, height, mobile).
SHOT_SIZES = (("1280", 1280, 800, False), ("360", 360, 740, True))
SILENCE_SECONDS = 7
AWAY_TURN_SECONDS = 2
RESUME_GRACE_SECONDS = 6
#: The page whose timers run this many times faster: its "about a minute" of tries takes seconds here.
TIME_SCALE = 10
FAST_TIMERS = """
(() => {
  const original = window.setTimeout.bind(window);
  window.setTimeout = (fn, ms = 0, ...rest) => original(fn, Math.max(0, ms) / %d, ...rest);
})();
""" % TIME_SCALE


class Page(browser_support.Page):
    # Sockets refused while the server is down on purpose are expected.
    expected_console = ("ERR_INTERNET_DISCONNECTED", "WebSocket", "ERR_CONNECTION_REFUSED", "favicon.ico")

    def members(self):
        """[(member id, shown name, away)] of the room's member list."""
        return self.js("""return [...document.querySelectorAll('#member-list .member')].map((li) => [
            li.dataset.key, li.querySelector('.member-name').textContent, li.classList.contains('is-away')]);""")

    def my_id(self):
        for member_id, name, _ in self.members():
            if name.endswith(" (you)"):
                return member_id
        return None

    def away(self, member_id):
        return any(away for key, _, away in self.members() if key == member_id)

    def online(self):
        return self.visible(".connection-pill[data-status='online']")

    def turn_is_mine(self):
        return self.js("return document.querySelector('#turn')?.dataset.mine") == "true"

    def guess_any(self):
        guessed = {item.text.strip().upper()[:1] for item in self.finds("#guessed-letters li")}
        letter = next(letter for letter in FREQUENCY if letter not in guessed)
        self.js("document.activeElement.blur()")
        webdriver.ActionChains(self.driver).send_keys(letter.lower()).perform()
        return len(guessed)

class Server:
    """The suite's own server, which it can stop and start again on the same port with the same data."""

    def __init__(self, binary, repo):
        self.binary = binary
        self.repo = repo
        self.data = tempfile.mkdtemp(prefix="wordrooms-seats-")
        self.log = os.path.join(self.data, "server.log")
        self.process = None
        self.port = 0

    def start(self):
        arguments = [self.binary, "--host", "127.0.0.1", "--port", str(self.port), "--web",
                     os.path.join(self.repo, "web"), "--data", os.path.join(self.data, "rooms"),
                     "--silence-seconds", str(SILENCE_SECONDS), "--away-turn-seconds", str(AWAY_TURN_SECONDS),
                     "--resume-grace", str(RESUME_GRACE_SECONDS)]
        with open(self.log, "w", encoding="utf-8") as log:
            self.process = subprocess.Popen(arguments, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            with open(self.log, encoding="utf-8") as log:
                found = re.search(r"WordRooms is running at http://127\.0\.0\.1:(\d+)/", log.read())
            if found:
                self.port = int(found.group(1))
                return f"http://127.0.0.1:{self.port}"
            if self.process.poll() is not None:
                break
            time.sleep(0.1)
        with open(self.log, encoding="utf-8") as log:
            raise AssertionError("the server did not start: " + log.read()[-500:])

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def remove(self):
        self.stop()
        shutil.rmtree(self.data, ignore_errors=True)


def server_binary():
    if os.environ.get("WORDROOMS_SERVER"):
        return os.environ["WORDROOMS_SERVER"]
    bots = os.environ.get("WORDROOMS_BOTS", "")
    return os.path.join(os.path.dirname(bots), "wordrooms") if bots else ""


def run(suite, args):
    checks = suite.checks
    binary = server_binary()
    if not os.access(binary, os.X_OK):
        checks.record("the server binary is there (WORDROOMS_SERVER)", False, binary or "not set")
        return
    server = Server(binary, args.repo)
    try:
        base_url = server.start()
        play(suite, checks, base_url, server)
    finally:
        server.remove()


def play(suite, checks, base_url, server):
    artifacts = suite.artifacts

    def page(name, **options):
        return suite.add(Page(name, base_url, **options))

    ana = page("Ana")
    bob = page("Bob")
    state = {}

    def create_room():
        ana.open("/")
        ana.open_create_dialog("snowman", name="Ana")
        return ana.submit_create_dialog()
    code = suite.require(checks.run("the host creates a Snowman room", create_room))

    def bob_joins():
        bob.open(f"/r/{code}")
        bob.wait_visible("#name-form")
        bob.type_into("#name-input", "Bob", enter=True)
        bob.wait(lambda: bob.my_id() is not None, "Bob's seat")
        state["bob"] = bob.my_id()
        state["first_tab"] = bob.driver.current_window_handle
        ana.wait(lambda: len(ana.members()) == 2, "Bob on Ana's list")
        return True
    suite.require(checks.run("Bob joins from his browser", bob_joins))

    # --- 1. One seat per person ----------------------------------------------------------------------------------
    def second_tab_offers_to_take_over():
        bob.driver.switch_to.new_window("tab")
        state["second_tab"] = bob.driver.current_window_handle
        bob.open(f"/r/{code}")
        bob.wait_visible("#take-over-seat")
        assert bob.visible("#watch-room"), "and Watch"
        assert "already in this room" in (bob.text("#room-status-title") or "").lower(), bob.text("#room-status-title")
        time.sleep(0.5)
        names = [name for _, name, _ in ana.members()]
        assert len(names) == 2 and not any("(2)" in name for name in names), names
        bob.gallery(artifacts, SHOT_PREFIX + "takeover-prompt", SHOT_SIZES, settle=0.4)
        bob.click("#take-over-seat")
        bob.wait(lambda: bob.my_id() == state["bob"], "the same seat in the second tab")
        names = [name for _, name, _ in ana.members()]
        assert len(names) == 2, names
        bob.driver.switch_to.window(state["first_tab"])

        # The first tab heard its seat move ("replaced"), or, hidden behind the second, it had already stopped its
        # heartbeat: back in view, its old token no longer takes the seat, and it offers the choice again.
        def first_tab_settled():
            moved = "moved to another tab" in (bob.text("#connection-banner") or "")
            return moved or bob.visible("#take-over-seat")
        bob.wait(first_tab_settled, "the first tab to pause or offer the choice")
        bob.gallery(artifacts, SHOT_PREFIX + "first-tab-after-takeover", SHOT_SIZES, settle=0.4)
        time.sleep(1.5)
        assert first_tab_settled(), "no reconnect loop fighting back"
        names = [name for _, name, _ in ana.members()]
        assert len(names) == 2 and not ana.away(state["bob"]), (names, "the second tab keeps the seat")
        bob.driver.close()
        bob.driver.switch_to.window(state["second_tab"])
        bob.wait(lambda: not ana.away(state["bob"]), "Bob here on Ana's page")
    checks.run("a second tab offers 'Take over here' (no second seat) and the first tab says the seat moved",
               second_tab_offers_to_take_over)

    def reopened_tab_gets_the_seat_back():
        closed = bob.driver.current_window_handle
        bob.driver.switch_to.new_window("tab")
        reopened = bob.driver.current_window_handle
        bob.driver.switch_to.window(closed)
        bob.driver.close()
        bob.driver.switch_to.window(reopened)
        ana.wait(lambda: ana.away(state["bob"]), "Bob away once his tab closed")
        time.sleep(2)
        bob.open(f"/r/{code}")
        bob.wait(lambda: bob.my_id() is not None, "a seat")
        assert bob.my_id() == state["bob"], (bob.my_id(), state["bob"])
        names = [name for _, name, _ in ana.members()]
        assert names == ["Ana", "Bob"] or (len(names) == 2 and "(2)" not in "".join(names)), names
        ana.wait(lambda: not ana.away(state["bob"]), "Bob back on Ana's page")
    checks.run("closing the tab and opening the link again gives back the same seat", reopened_tab_gets_the_seat_back)

    # --- 2. A frozen or cached page is away --------------------------------------------------------------------
    def frozen_page_is_away_and_its_turn_passes():
        assert bob.js("return document.visibilityState") == "visible"
        ana.wait(lambda: ana.turn_is_mine() or bob.turn_is_mine(), "someone's turn")
        if ana.turn_is_mine():
            before = ana.guess_any()
            ana.wait(lambda: len(ana.finds("#guessed-letters li")) > before, "Ana's guess")
        bob.wait(lambda: bob.turn_is_mine(), "Bob's turn")
        bob.driver.execute_cdp_cmd("Page.setWebLifecycleState", {"state": "frozen"})
        frozen_at = time.monotonic()
        try:
            ana.wait(lambda: ana.away(state["bob"]), "Bob away", timeout=SILENCE_SECONDS + 6)
            away_after = time.monotonic() - frozen_at
            ana.wait(lambda: ana.turn_is_mine(), "the turn to pass to Ana", timeout=AWAY_TURN_SECONDS + 4)
            passed_after = time.monotonic() - frozen_at
            print(f"     away after {away_after:.1f} s, turn passed after {passed_after:.1f} s", flush=True)
        finally:
            bob.driver.execute_cdp_cmd("Page.setWebLifecycleState", {"state": "active"})
        bob.wait(lambda: bob.online() and bob.my_id() == state["bob"], "Bob's thawed page back in his seat",
                 timeout=10)
        ana.wait(lambda: not ana.away(state["bob"]), "Bob here again")
    checks.run(f"a frozen page is away within {SILENCE_SECONDS} s and its turn passes; thawed, it resumes",
               frozen_page_is_away_and_its_turn_passes)

    def cached_page_is_away_at_once():
        bob.js("window.__beforeLeaving = true")
        bob.open("/api/config")
        left_at = time.monotonic()
        ana.wait(lambda: ana.away(state["bob"]), "Bob away", timeout=4)
        print(f"     away after {time.monotonic() - left_at:.1f} s", flush=True)
        bob.driver.back()
        bob.wait(lambda: bob.online() and bob.my_id() == state["bob"], "Bob back in his seat", timeout=10)
        cached = bob.js("return window.__beforeLeaving === true")
        print(f"     restored from the back/forward cache: {cached}", flush=True)
        ana.wait(lambda: not ana.away(state["bob"]), "Bob here again")
    checks.run("a page left for another (back/forward cache) is away at once and resumes on Back",
               cached_page_is_away_at_once)

    # --- 7. The browser keeps its id across a lost seat and a rename -------------------------------------------
    def lost_seat_keeps_the_id_and_says_so():
        bob.click(f"#member-list .member[data-key='{state['bob']}'] [data-action='rename']")
        bob.wait_visible("#rename-input")
        bob.type_into("#rename-input", "Bobby", enter=True)
        ana.wait(lambda: any(name.startswith("Bobby") for _, name, _ in ana.members()), "the rename")
        bob.offline(True)
        ana.wait(lambda: len(ana.members()) == 1, "Bob's seat given up",
                 timeout=SILENCE_SECONDS + RESUME_GRACE_SECONDS + 8)
        bob.offline(False)
        bob.wait(lambda: bob.online() and bob.my_id() is not None, "Bob seated again", timeout=15)
        assert bob.my_id() == state["bob"], f"the browser's id again: {bob.my_id()} after {state['bob']}"
        names = [name for _, name, _ in ana.members()]
        assert len(names) == 2 and names[1].startswith("Bobby"), names
        bob.wait(lambda: "seat was given up" in (bob.text(".toast, .notice, [role='alert']") or "")
                 or "seat was given up" in bob.js("return document.body.innerText"), "a notice about the lost seat")
    checks.run("a seat lost for longer than the grace comes back under the browser's id, after a rename, and says so",
               lost_seat_keeps_the_id_and_says_so)

    # --- 4. Minutes of server downtime -------------------------------------------------------------------------
    def page_recovers_from_downtime():
        cleo = page("Cleo", init_script=FAST_TIMERS)
        cleo.open(f"/r/{code}")
        cleo.wait_visible("#name-form")
        cleo.type_into("#name-input", "Cleo", enter=True)
        cleo.wait(lambda: cleo.my_id() is not None, "Cleo's seat")
        you = cleo.my_id()
        server.stop()
        stopped_at = time.monotonic()
        cleo.wait(lambda: "Can't reach the server" in (cleo.text("#connection-banner") or ""),
                  "the page to say it cannot reach the server", timeout=30)
        # Past the page's "about a minute" of tries (a tenth of it here), then some more.
        time.sleep(max(0.0, 9 - (time.monotonic() - stopped_at)))
        server.start()
        back_at = time.monotonic()
        cleo.wait(lambda: cleo.online() and cleo.my_id() == you, "the page back in its seat by itself", timeout=20)
        print(f"     down {back_at - stopped_at:.0f} s; back {time.monotonic() - back_at:.1f} s after the restart",
              flush=True)
    checks.run("after minutes of downtime the page keeps trying and recovers by itself when the server is back",
               page_recovers_from_downtime)


if __name__ == "__main__":
    browser_support.main(run, __doc__.splitlines()[0], shot_prefix=SHOT_PREFIX)

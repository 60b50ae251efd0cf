"""Game night page flow in headless Chromium: the ways into a room and back out, and a page that survives a
silent server.

Covers issue 14's page flow: the styled 404 page, `/r/abc` (not a room code), a wrong code that says "Room not
found" before any name is asked for, an emoji name, a refused name shown on the name form (and not kept), a host
removing a player who then reloads and stays out while another browser still joins, Back keeping the seat (Forward
and reopening resume the same player with the same score and the host role), Leave asking first, a full room's
Watch button, a locked room, the heartbeat noticing a paused server (SIGSTOP of WORDROOMS_SERVER_PID) without any
`offline` event and resuming after SIGCONT, and the bounded retries ending in "Can't reach the server" with
"Try again". Every changed screen is photographed at 390x844 and 1280x800, light and dark.

Prints PASS/FAIL per check and exits non-zero if any failed. Screenshots go to --artifacts (flow-*.png).

Usage: game_night_flow_test.py --base-url http://127.0.0.1:PORT --repo REPO_ROOT --artifacts DIR
"""

import json
import os
import signal
import time
import urllib.error
import urllib.request

import browser_support
from selenium import webdriver
from selenium.webdriver.common.keys import Keys
from snowman_solver import FREQUENCY

SHOT_PREFIX = "flow-"
# The gallery's screens: (label, width, height, mobile).
GALLERY_SIZES = (("desktop", 1280, 800, False), ("phone", 390, 844, True))
# Runs before the app's scripts on every page load: counts `offline` events and notes whether the name form was
# ever on the page (a wrong code must say "not found" before asking for a name).
RECORDER = """
window.__flow = { offlineEvents: 0, sawNameForm: false };
window.addEventListener('offline', () => { window.__flow.offlineEvents += 1; });
new MutationObserver(() => {
  if (document.getElementById('name-form')) window.__flow.sawNameForm = true;
}).observe(document, { childList: true, subtree: true });
"""


class Page(browser_support.Page):
    """One browser session (its own profile: storage and client id) and helpers to read the app's DOM."""

    def __init__(self, name, base_url, width=1280, height=800, phone=False):
        super().__init__(name, base_url, width=width, height=height, phone=phone, init_script=RECORDER)

    # Failed socket opens while the network is off or the server is paused, and the 404 page itself, are expected.
    expected_console = ("ERR_INTERNET_DISCONNECTED", "WebSocket", "404")

    def set_value(self, css, text):
        """Types text ChromeDriver cannot send (emoji outside the BMP) the way an input event would."""
        self.js("const e = document.querySelector(arguments[0]); e.focus(); e.value = arguments[1];"
                "e.dispatchEvent(new Event('input', {bubbles: true}));", css, text)

    def flow(self):
        return self.js("return window.__flow || {}")

    def members(self):
        """[(member id, shown name, away, badges text)] of the room's member list."""
        return self.js("""return [...document.querySelectorAll('#member-list .member')].map((li) => [
            li.dataset.key, li.querySelector('.member-name').textContent, li.classList.contains('is-away'),
            li.querySelector('.member-badges')?.textContent ?? '']);""")

    def my_id(self):
        for member_id, name, _, _ in self.members():
            if name.endswith(" (you)"):
                return member_id
        return None

    def score_of(self, name):
        return self.js("""
            for (const li of document.querySelectorAll('#snowman-scores li')) {
              const shown = li.querySelector('.score-name')?.textContent.replace(' (you)', '');
              if (shown === arguments[0]) return Number(li.querySelector('.score-value').textContent);
            }
            return null;""", name)

def run(suite, args):
    checks = suite.checks
    artifacts = args.artifacts
    server_pid = int(os.environ.get("WORDROOMS_SERVER_PID", "0") or 0)
    raws = []

    def page(name, **options):
        return suite.add(Page(name, args.base_url, **options))

    def gallery(target, name):
        target.gallery(artifacts, SHOT_PREFIX + name, GALLERY_SIZES)

    try:
        ana = page("Ana")
        # --- Pages without a room -----------------------------------------------------------------------------
        def not_found_page():
            with urllib.request.urlopen(args.base_url + "/", timeout=5) as response:
                assert response.status == 200
            request = urllib.request.Request(args.base_url + "/no/such/page", headers={"Accept": "text/html"})
            try:
                urllib.request.urlopen(request, timeout=5)
                raise AssertionError("an unknown path answered 2xx")
            except urllib.error.HTTPError as error:
                assert error.code == 404, error.code
                body = error.read().decode("utf-8")
                assert "Page not found" in body and "/css/app.css" in body, body[:200]
            ana.open("/no/such/page")
            ana.wait_visible("#not-found")
            assert ana.driver.title.startswith("Page not found"), ana.driver.title
            radius = ana.js("return getComputedStyle(document.querySelector('#not-found')).borderRadius")
            assert radius not in ("", "0px"), f"styled by app.css: {radius}"
            ana.js("localStorage.setItem('wordrooms.prefs', JSON.stringify({theme: 'dark'}))")
            ana.driver.refresh()
            ana.wait_visible("#not-found")
            assert ana.js("return document.documentElement.dataset.theme") == "dark", "the theme boot script runs"
            background = ana.js("return getComputedStyle(document.body).backgroundColor")
            assert background.startswith("rgb(14, 19, 32)"), background
            ana.js("localStorage.removeItem('wordrooms.prefs')")
            gallery(ana, "404")
            ana.type_into("#other-code", "ab", enter=True)
            ana.wait(lambda: "4 letters" in (ana.text("#other-code-error") or ""), "a code error")
            ana.click("#not-found-lobby")
            ana.wait_visible("#create-room")
            assert ana.js("return location.pathname") == "/"
        checks.run("an unknown path gets a styled 404 page (status 404, both themes) with a way back to the lobby",
                   not_found_page)

        def bad_code_page():
            ana.open("/r/abc")
            ana.wait_visible("#room-status[data-kind='bad-code']")
            message = ana.text("#room-status-message")
            assert message == "'abc' is not a room code: codes are 4 letters, like QHTW.", message
            time.sleep(1)
            assert ana.js("return location.pathname") == "/r/abc", "no silent redirect"
            assert ana.visible("#status-back") and ana.visible("#other-code") and ana.visible("#status-create")
            assert not ana.flow().get("sawNameForm"), "no name asked for"
            gallery(ana, "bad-code")
            ana.click("#status-back")
            ana.wait_visible("#create-room")
        checks.run("/r/abc says it is not a room code, keeps its address, and offers the lobby and a code field",
                   bad_code_page)

        def wrong_code_page():
            ana.open("/r/ZZZZ")
            ana.wait_visible("#room-status[data-kind='not-found']")
            assert ana.text("#room-status-title") == "Room not found", ana.text("#room-status-title")
            assert "ZZZZ" in ana.text("#room-status-message")
            assert not ana.flow().get("sawNameForm"), "the name form never showed"
            assert ana.visible("#status-back") and ana.visible("#status-create") and ana.visible("#other-code")
            assert not ana.visible("#status-retry")
            gallery(ana, "room-not-found")
            ana.click("#status-create")
            ana.wait_visible("#create-dialog")
            ana.find("#create-name").send_keys(Keys.ESCAPE)
            ana.wait(lambda: not ana.visible("#create-dialog"), "the dialog to close")
        checks.run("a wrong code says 'Room not found' before asking for a name, with lobby, code field and create",
                   wrong_code_page)

        # --- A room -----------------------------------------------------------------------------------------------
        def create_room():
            ana.open("/")
            ana.open_create_dialog("snowman", name="Ana")
            ana.submit_create_dialog()
            # Score a point alone, so that "the same score" after Back means something. A secret with none of the
            # commonest letters (LUCKY) can melt the snowman first: then Ana starts the next game and goes on.
            for _ in range(3 * len(FREQUENCY)):
                if (ana.score_of("Ana") or 0) > 0:
                    break
                if ana.visible("#new-game"):
                    ana.click("#new-game")
                    ana.wait(lambda: not ana.finds("#guessed-letters li"), "the next game")
                ana.wait(lambda: ana.js("return document.querySelector('#turn')?.dataset.mine") == "true", "Ana's turn")
                guessed = {item.text.strip().upper() for item in ana.finds("#guessed-letters li")}
                letter = next(letter for letter in FREQUENCY if letter not in guessed)
                ana.js("document.activeElement.blur()")
                webdriver.ActionChains(ana.driver).send_keys(letter.lower()).perform()
                ana.wait(lambda b=len(guessed): len(ana.finds("#guessed-letters li")) > b or ana.visible("#new-game"),
                         f"guess {letter}")
            assert (ana.score_of("Ana") or 0) > 0, "Ana scored alone"
            return ana.room_code()
        code = suite.require(checks.run("the host creates a Snowman room", create_room))

        bob = page("Bob", width=390, height=844, phone=True)

        def emoji_name_is_accepted():
            bob.open(f"/r/{code}")
            bob.wait_visible("#name-form")
            context = bob.text("#name-context") or ""
            assert "Snowman" in context and "1 player" in context, f"the peek's summary: {context!r}"
            bob.set_value("#name-input", "Hal 👩‍💻")
            bob.click("#name-submit")
            bob.wait_visible("#word .tile")
            bob.wait(lambda: any(name == "Hal 👩‍💻 (you)" for _, name, _, _ in bob.members()), "Hal in the list")
            ana.wait(lambda: any(name == "Hal 👩‍💻" for _, name, _, _ in ana.members()), "Hal on the host's page")
            prefs = json.loads(bob.js("return localStorage.getItem('wordrooms.prefs')"))
            assert prefs["name"] == "Hal 👩‍💻", prefs
            client = bob.js("return localStorage.getItem('wordrooms.client')")
            assert client and len(client) == 22, client
            gallery(bob, "room-emoji-name")
        checks.run("an emoji name ('Hal 👩‍💻') is accepted on the name form", emoji_name_is_accepted)

        cleo = page("Cleo")

        def refused_name_on_the_form():
            cleo.open("/")
            cleo.js("localStorage.setItem('wordrooms.prefs', JSON.stringify({name: 'Cleo\u202e'}))")
            cleo.open(f"/r/{code}")
            cleo.wait_visible("#name-form")
            cleo.wait(lambda: cleo.text("#name-error"), "the server's reason on the form")
            reason = cleo.text("#name-error")
            assert "name" in reason.lower(), reason
            assert cleo.js("return document.querySelector('#name-input').value") == "Cleo\u202e", "what was refused"
            assert not cleo.visible("#room-status"), "not a dead-end page"
            assert json.loads(cleo.js("return localStorage.getItem('wordrooms.prefs')"))["name"] == "", "forgotten"
            gallery(cleo, "name-refused")
            cleo.driver.refresh()
            cleo.wait_visible("#name-form")
            assert cleo.js("return document.querySelector('#name-input').value") == "", "asked for again"
            cleo.type_into("#name-input", "Cleo", enter=True)
            cleo.wait_visible("#word .tile")
            ana.wait(lambda: any(name == "Cleo" for _, name, _, _ in ana.members()), "Cleo on the host's page")
        checks.run("a refused name is shown on the name form with the server's reason and is asked for again after a reload",
                   refused_name_on_the_form)

        def kick_then_reload():
            cleo_id = next(member_id for member_id, name, _, _ in ana.members() if name == "Cleo")
            button = f"#member-list [data-action='kick'][data-member='{cleo_id}']"
            ana.click(button)
            ana.wait(lambda: "Sure?" in (ana.text(button) or ""), "the confirmation")
            ana.click(button)
            cleo.wait_visible("#room-status[data-kind='kicked']")
            assert "Removed" in cleo.text("#room-status-title"), cleo.text("#room-status-title")
            assert cleo.visible("#status-back")
            assert not cleo.visible("#status-retry") and not cleo.visible("#watch-room"), "Back to the lobby only"
            gallery(cleo, "removed")
            ana.wait(lambda: not any(name == "Cleo" for _, name, _, _ in ana.members()), "Cleo gone")
            cleo.driver.refresh()
            cleo.wait_visible("#room-status[data-kind='kicked']", timeout=10)
            time.sleep(1)
            assert not any(name == "Cleo" for _, name, _, _ in ana.members()), "not back in the room after a reload"
            assert not cleo.visible("#word .tile")
            dee = page("Dee")
            dee.open(f"/r/{code}")
            dee.wait_visible("#name-form")
            dee.type_into("#name-input", "Dee", enter=True)
            dee.wait_visible("#word .tile")
            ana.wait(lambda: any(name == "Dee" for _, name, _, _ in ana.members()), "Dee on the host's page")
            cleo.click("#status-back")
            cleo.wait_visible("#create-room")
            return dee
        dee = checks.run("a removed player reloads and stays out (the removed page); another browser still joins",
                         kick_then_reload)

        def back_keeps_the_seat():
            you = ana.my_id()
            score = ana.score_of("Ana")
            assert you and score is not None, (you, score)
            assert "Host" in next(badges for member_id, _, _, badges in ana.members() if member_id == you)
            ana.driver.back()
            ana.wait_visible("#create-room")
            assert ana.js("return location.pathname") == "/"
            ana.wait_visible("#kept-seat")
            assert code in ana.text("#kept-seat"), ana.text("#kept-seat")
            bob.wait(lambda: any(member_id == you and away for member_id, _, away, _ in bob.members()), "Ana away")
            gallery(ana, "lobby-kept-seat")
            ana.driver.forward()
            ana.wait_visible("#word .tile")
            ana.wait(lambda: ana.my_id() == you, "the same player id after Forward")
            ana.wait(lambda: ana.score_of("Ana") == score, "the same score")
            bob.wait(lambda: any(member_id == you and not away for member_id, _, away, _ in bob.members()), "Ana back")
            assert "Host" in next(badges for member_id, _, _, badges in bob.members() if member_id == you), "still host"
            # Back again, and reopen the room from the lobby's card: the seat resumes again.
            ana.driver.back()
            ana.wait_visible("#kept-seat")
            ana.click("#kept-seat-return")
            ana.wait_visible("#word .tile")
            ana.wait(lambda: ana.my_id() == you, "the same player id after reopening")
            # And by loading the room's address in the same tab.
            ana.driver.back()
            ana.wait_visible("#create-room")
            ana.open(f"/r/{code}")
            ana.wait_visible("#word .tile")
            ana.wait(lambda: ana.my_id() == you, "the same player id after loading the room again")
            assert ana.score_of("Ana") == score
            assert ana.visible("#host-settings"), "the host's settings are still Ana's"
            assert not ana.flow().get("sawNameForm"), "no name asked for on resume"
        checks.run("Back keeps the seat: Forward, the lobby's card and reopening resume the same player, score and host role",
                   back_keeps_the_seat)

        def leave_asks_first():
            bob.click("#leave-room")
            bob.wait_visible("#leave-confirm-box")
            assert "Leave the room?" in bob.text("#leave-confirm-box")
            assert bob.js("return document.activeElement.id") == "leave-cancel", "focus on the safe choice"
            gallery(bob, "leave-confirm")
            bob.click("#leave-cancel")
            bob.wait(lambda: bob.visible("#leave-room") and not bob.visible("#leave-confirm-box"), "the Leave button again")
            assert bob.js("return location.pathname") == f"/r/{code}", "cancel stays"
            if dee:
                dee.click("#leave-room")
                dee.click("#leave-confirm")
                dee.wait_visible("#create-room")
                assert not dee.visible("#kept-seat"), "a real leave keeps no seat"
                ana.wait(lambda: not any(name == "Dee" for _, name, _, _ in ana.members()), "Dee gone for good")
        checks.run("Leave asks 'Leave the room?' in the page first; Cancel stays, Yes leaves for good", leave_asks_first)

        # --- Full and locked rooms (filled and locked over plain sockets) ----------------------------------------
        def full_room_has_a_watch_button():
            host = browser_support.RawClient(args.base_url)
            raws.append(host)
            host.send({"type": "create", "game": "snowman", "name": "Filler 0", "public": False})
            welcome = host.until(lambda m: m.get("type") == "welcome")
            full_code, full_key = welcome["code"], welcome["key"]   # private: its link carries the key
            host.drain_in_background()
            for number in range(1, 16):
                filler = browser_support.RawClient(args.base_url)
                raws.append(filler)
                filler.send({"type": "join", "code": full_code, "key": full_key, "name": f"Filler {number}"})
                filler.until(lambda m: m.get("type") in ("welcome", "error"))
                filler.drain_in_background()
            watcher = dee or cleo
            watcher.open(f"/r/{full_code}#k={full_key}")
            watcher.wait_visible("#room-status[data-kind='full']")
            assert watcher.text("#room-status-title") == "Room full — watch instead?", watcher.text("#room-status-title")
            assert not watcher.flow().get("sawNameForm"), "said before asking for a name"
            gallery(watcher, "room-full")
            watcher.click("#watch-room")
            watcher.wait(lambda: watcher.visible("#word .tile") or watcher.visible("#name-form"), "watching or a name")
            if watcher.visible("#name-form"):
                watcher.type_into("#name-input", "Dee", enter=True)
                watcher.wait_visible("#word .tile")
            watcher.wait(lambda: any(name.endswith("(you)") and "Watching" in badges
                                     for _, name, _, badges in watcher.members()), "a spectator's seat")
            watcher.click("#leave-room")
            watcher.click("#leave-confirm")
            watcher.wait_visible("#create-room")
        checks.run("a full room says 'Room full — watch instead?' up front, and Watch joins as a spectator",
                   full_room_has_a_watch_button)

        def locked_room_says_so():
            host = browser_support.RawClient(args.base_url)
            raws.append(host)
            host.send({"type": "create", "game": "snowman", "name": "Locksmith", "public": False})
            welcome = host.until(lambda m: m.get("type") == "welcome")
            locked_code, locked_key = welcome["code"], welcome["key"]
            host.send({"type": "lock", "locked": True})
            answer = host.until(lambda m: m.get("type") in ("patch", "error"))
            assert answer["type"] == "patch", answer
            host.drain_in_background()
            visitor = dee or cleo
            visitor.open(f"/r/{locked_code}#k={locked_key}")
            visitor.wait_visible("#room-status[data-kind='locked']")
            assert visitor.text("#room-status-title") == "Room locked"
            assert not visitor.flow().get("sawNameForm")
            gallery(visitor, "room-locked")
            visitor.click("#status-back")
            visitor.wait_visible("#create-room")
        checks.run("a locked room says 'Room locked' before asking for a name", locked_room_says_so)

        # --- A silent server ----------------------------------------------------------------------------------------
        def heartbeat_notices_a_paused_server():
            assert server_pid > 0, "WORDROOMS_SERVER_PID is not set"
            you = bob.my_id()
            assert you, "Bob is in the room"
            assert bob.visible(".connection-pill[data-status='online']")
            os.kill(server_pid, signal.SIGSTOP)
            paused_at = time.monotonic()
            try:
                bob.wait(lambda: bob.visible("#connection-banner"), "the page to notice", timeout=22)
                noticed = time.monotonic() - paused_at
                print(f"     noticed after {noticed:.1f} s", flush=True)
                assert noticed <= 20.5, f"took {noticed:.1f} s"
                assert "Connection lost" in bob.text("#connection-banner"), bob.text("#connection-banner")
                assert bob.js("return navigator.onLine") is True
                assert bob.flow().get("offlineEvents") == 0, "no offline event: the heartbeat noticed"
                ana.wait(lambda: ana.visible("#connection-banner"), "the host's page to notice too", timeout=8)
                gallery(bob, "connection-lost")
            finally:
                os.kill(server_pid, signal.SIGCONT)
            for target in (bob, ana):
                target.wait(lambda t=target: t.visible(".connection-pill[data-status='online']")
                            and not t.visible("#connection-banner"), "back online", timeout=30)
            bob.wait(lambda: bob.my_id() == you, "the same seat")
            ana.wait(lambda: any(member_id == you and not away for member_id, _, away, _ in ana.members()), "Bob back")
        checks.run("the heartbeat notices a paused server (SIGSTOP) within 20 s without an offline event, and resumes after SIGCONT",
                   heartbeat_notices_a_paused_server)

        def bounded_retries_then_try_again():
            # Cleo is in the lobby; her network goes away and never comes back by itself.
            cleo.open("/")
            cleo.wait_visible(".connection-pill[data-status='online']")
            cleo.offline(True)
            cleo.wait(lambda: cleo.visible("#connection-banner"), "reconnecting", timeout=5)
            cleo.wait(lambda: "Can't reach the server" in (cleo.text("#connection-banner") or ""),
                      "the page to give up", timeout=90)
            assert cleo.visible("#connection-banner button"), "a Try again button"
            assert "Try again" in cleo.text("#connection-banner button")
            assert not cleo.visible("#connection-banner .banner-spinner"), "no spinner once it gave up"
            gallery(cleo, "cannot-reach-server")
            # The button tries again by itself (still offline here, so it goes back to reconnecting)...
            cleo.click("#connection-banner button")
            cleo.wait(lambda: "Can't reach" not in (cleo.text("#connection-banner") or ""), "Try again to try again")
            # ...and the network coming back reconnects at once.
            cleo.offline(False)
            cleo.wait(lambda: cleo.visible(".connection-pill[data-status='online']"), "online again", timeout=15)
        checks.run("after a bounded number of tries the page says 'Can't reach the server' and 'Try again' works",
                   bounded_retries_then_try_again)
    finally:
        if server_pid:
            try:
                os.kill(server_pid, signal.SIGCONT)
            except OSError:
                pass
        for raw in raws:
            raw.close()


if __name__ == "__main__":
    browser_support.main(run, __doc__.splitlines()[0], shot_prefix=SHOT_PREFIX)

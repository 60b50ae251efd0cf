"""Drives the WordRooms web client in headless Chromium against a running server.

Two browser sessions play in one room opened by link: Snowman games until one was won and one lost (compared on
both pages) over game sockets that negotiated permessage-deflate (the 101's Sec-WebSocket-Extensions as Chromium
received it, from its DevTools network events, and the page's WebSocket.extensions), host settings and history,
chat, a dropped connection and a reload that both resume the seat, then a Word Scramble match with accepted and
refused words, the missed words between rounds and the final standings. A third, phone-sized session watches and
is removed by the host. The theme survives a reload. Every game socket of the run negotiated compression.

Prints PASS/FAIL per check and exits non-zero if any failed. Screenshots go to --artifacts.

Usage: browser_test.py --base-url http://127.0.0.1:PORT --repo REPO_ROOT --artifacts DIR
"""

import collections
import itertools
import os
import time
import urllib.parse

import browser_support
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from snowman_solver import SnowmanSolver, load_words


# What the server answers a game socket's permessage-deflate offer (RFC 7692): the client resets its context
# after each message, the server compresses each room's patches in an 11-bit window.
GAME_EXTENSIONS = "permessage-deflate; client_no_context_takeover; server_max_window_bits=11"
# Runs before the app's scripts on every page load: notes each WebSocket the page opens, the extensions it
# reports once open (what Blink agreed to) and how it closed. A subclass, so the app's sockets behave as before.
SOCKET_RECORDER = """
(() => {
  const Native = window.WebSocket;
  const sockets = [];
  window.__sockets = sockets;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      const entry = { path: new URL(this.url).pathname, extensions: null, closeCode: null };
      sockets.push(entry);
      this.addEventListener('open', () => { entry.extensions = this.extensions; });
      this.addEventListener('close', (event) => { entry.closeCode = event.code; });
    }
  };
})();
"""


def header(headers, name):
    """A header of a DevTools request or response (names as sent, so compared without case)."""
    return next((value for key, value in (headers or {}).items() if key.lower() == name.lower()), None)


class Page(browser_support.Page):
    """One browser session and helpers to read the app's DOM."""

    def __init__(self, name, base_url, width=1280, height=900, phone=False, net_log=None):
        super().__init__(name, base_url, width=width, height=height, phone=phone, init_script=SOCKET_RECORDER,
                         network_log=True, net_log=net_log)

    def text_frames(self):
        """Counts of the text frames in Chromium's NetLog: (received, received with RSV1, sent, sent with RSV1)."""
        headers = [(direction, frame["reserved1"]) for _, direction, frame in self.websocket_frame_headers()
                   if frame["opcode"] == 1]
        received = [compressed for direction, compressed in headers if direction == "received"]
        sent = [compressed for direction, compressed in headers if direction == "sent"]
        return len(received), sum(received), len(sent), sum(sent)

    def game_socket_handshakes(self):
        """Every game socket (/ws) this session opened, from Chromium's network events: [(request id, offer,
        101 status, Sec-WebSocket-Extensions received, text frames received)], and the frame errors [(request id,
        message)] (a socket opened while the network is off ends in one, `net::ERR_INTERNET_DISCONNECTED`)."""
        events = self.websocket_events()
        game = [event["params"]["requestId"] for event in events if event["method"] == "Network.webSocketCreated"
                and urllib.parse.urlsplit(event["params"]["url"]).path.startswith("/ws")]
        offers, answers, frames, errors = {}, {}, collections.Counter(), []
        for event in events:
            params = event["params"]
            request = params.get("requestId")
            if request not in game:
                continue
            if event["method"] == "Network.webSocketWillSendHandshakeRequest":
                offers[request] = header(params["request"].get("headers"), "Sec-WebSocket-Extensions")
            elif event["method"] == "Network.webSocketHandshakeResponseReceived":
                response = params["response"]
                answers[request] = (response.get("status"),
                                    header(response.get("headers"), "Sec-WebSocket-Extensions"))
            elif event["method"] == "Network.webSocketFrameReceived" and params["response"].get("opcode") == 1:
                frames[request] += 1
            elif event["method"] == "Network.webSocketFrameError":
                errors.append((request, params.get("errorMessage")))
        handshakes = [(request, offers.get(request), *answers.get(request, (None, None)), frames[request])
                      for request in game]
        return handshakes, errors

    def expect_compressed_game_sockets(self, no_reconnects):
        """Every game socket Chromium opened got GAME_EXTENSIONS in its 101, as Chromium received it, and the page's
        open socket reports it; with `no_reconnects`, no socket of the current page load closed (a compressed frame
        Chromium could not read would fail the socket, and the page's resume could hide that)."""
        handshakes, errors = self.game_socket_handshakes()
        # Sockets the page tried while offline on purpose never sent a handshake; the others all got an answer.
        handshakes = [handshake for handshake in handshakes if handshake[2] is not None]
        assert handshakes, f"{self.name}: Chromium reported no answered game socket handshake"
        for request, offer, status, extensions, _ in handshakes:
            assert offer and "permessage-deflate" in offer, f"{self.name}: socket {request} offered {offer!r}"
            assert status == 101, f"{self.name}: socket {request}: handshake status {status}"
            assert extensions == GAME_EXTENSIONS, f"{self.name}: socket {request} got Sec-WebSocket-Extensions {extensions!r}"
        answered = {handshake[0] for handshake in handshakes}
        errors = [message for request, message in errors if request in answered]
        assert not errors, f"{self.name}: frame errors on open game sockets: {errors}"
        sockets = [entry for entry in self.js("return window.__sockets || []") if entry["path"].startswith("/ws")]
        assert sockets, f"{self.name}: the page opened no game socket"
        current = sockets[-1]
        assert current["closeCode"] is None and current["extensions"] == GAME_EXTENSIONS, \
            f"{self.name}: the page's socket reports {current}"
        if no_reconnects:
            assert len(sockets) == 1, f"{self.name}: {len(sockets)} game sockets in this page load: {sockets}"
        return handshakes

    def snowman_view(self):
        """The parts of a Snowman page both players must see alike: all but whose turn it is."""
        view = self.snowman()
        del view["mine"]
        return view

    def scramble_view(self):
        return self.js("""
            const all = (s) => [...document.querySelectorAll(s)];
            return {
              root: document.querySelector('#root-word')?.dataset.word,
              found: all('#found-list .found-word').map((li) => li.querySelector('.found-text').textContent + '/' + li.querySelector('.length-badge').textContent),
              progress: document.querySelector('#words-progress')?.textContent,
              scores: all('#scramble-scores li').map((li) => li.querySelector('.score-name').textContent.replace(' (you)', '') + '=' + li.querySelector('.score-value').textContent),
              status: document.querySelector('#status-line')?.textContent,
            };""")

def run(suite, args):
    checks = suite.checks
    shot = suite.shot
    secrets = load_words(args.repo, "secrets.txt")
    dictionary = load_words(args.repo, "dictionary.txt")
    solver = SnowmanSolver(secrets)
    # Chromium's NetLog of each player: the frame headers it received, RSV1 included (kept with the screenshots).
    ana = suite.add(Page("Ana", args.base_url, net_log=os.path.join(args.artifacts, "netlog-Ana.json")))
    bob = suite.add(Page("Bob", args.base_url, net_log=os.path.join(args.artifacts, "netlog-Bob.json")))

    # --- Lobby -----------------------------------------------------------------------------------------------
    def lobby_loads():
        ana.open("/")
        assert ana.driver.title == "WordRooms", ana.driver.title
        ana.wait(lambda: ana.js("return document.querySelector('#rooms-panel')?.getAttribute('aria-busy')") == "false",
                 "the room list to load")
        ana.wait(lambda: ana.visible(".empty-state") or ana.visible(".room-list"), "an empty state or a room list")
        assert ana.visible("#tab-snowman") and ana.visible("#tab-scramble"), "game tabs"
        assert ana.visible(".connection-pill[data-status='online']"), "online pill"
        shot(ana, "01-lobby")
    checks.run("lobby loads with game tabs and the public room list", lobby_loads)

    def lobby_tabs_by_keyboard():
        ana.find("#tab-snowman").click()
        ana.press(Keys.ARROW_RIGHT)
        ana.wait(lambda: ana.js("return document.querySelector('#tab-scramble').getAttribute('aria-selected')") == "true",
                 "the Word Scramble tab to be selected")
        assert ana.js("return document.activeElement.id") == "tab-scramble"
        ana.press(Keys.ARROW_LEFT)
    checks.run("lobby tabs switch with the arrow keys", lobby_tabs_by_keyboard)

    def join_code_validation():
        ana.type_into("#join-code", "ab1", enter=True)
        ana.wait(lambda: "4 letters" in (ana.text("#join-code-error") or ""), "a code error in words")
        ana.find("#join-code").clear()
    checks.run("join by code refuses a malformed code in words", join_code_validation)

    # --- Settings and theme ------------------------------------------------------------------------------------
    def settings_and_theme_survive_reload():
        ana.click("#open-settings")
        ana.wait_visible("#settings-dialog")
        ana.type_into("#settings-name", "Ana")
        ana.find("label.segment:has(#theme-dark)").click()
        ana.find("label.swatch[data-accent='teal']").click()
        assert ana.js("return document.documentElement.dataset.theme") == "dark", "dark applied at once"
        shot(ana, "02-settings-dark")
        ana.find("#settings-form button[type='submit']").click()
        ana.wait(lambda: not ana.visible("#settings-dialog"), "the dialog to close")
        ana.driver.refresh()
        # The boot script sets the theme before the first paint; read it as early as the page is there.
        theme = ana.js("return [document.documentElement.dataset.theme, document.documentElement.dataset.accent]")
        assert theme == ["dark", "teal"], theme
        ana.wait(lambda: ana.visible(".empty-state") or ana.visible(".room-list"), "the lobby")
        background = ana.js("return getComputedStyle(document.body).backgroundColor")
        assert background.startswith("rgb(14, 19, 32)"), background
        shot(ana, "03-lobby-dark")
        ana.click("#open-settings")
        ana.find("label.segment:has(#theme-light)").click()
        ana.find("label.swatch[data-accent='blue']").click()
        assert ana.js("return document.documentElement.dataset.theme") == "light"
        ana.press(Keys.ESCAPE)
        ana.wait(lambda: not ana.visible("#settings-dialog"), "Escape to close the dialog")
    checks.run("appearance and accent apply at once and survive a reload", settings_and_theme_survive_reload)

    # --- Create a Snowman room ---------------------------------------------------------------------------------
    def create_snowman_room():
        ana.click("#create-room")
        ana.wait_visible("#create-dialog")
        assert ana.js("return document.querySelector('#create-name').value") == "Ana", "name remembered"
        ana.find("label.choice:has(input[value='snowman'])").click()
        minus = "#create-dialog [data-setting='maxWrongGuesses'] .stepper-button:first-of-type"
        for _ in range(6):
            if ana.find(minus).is_enabled():
                ana.find(minus).click()
        value = ana.text("#create-dialog [data-setting='maxWrongGuesses'] .stepper-value")
        assert value == "3", f"clamped at 3, got {value}"
        assert not ana.find(minus).is_enabled(), "− disabled at the minimum"
        spin = ana.find("#create-dialog [data-setting='turnSeconds'] .stepper-value")
        # New rooms have a 60 s turn timer; Home switches it off (this room plays untimed until the host sets 30 s).
        assert ana.text("#create-dialog [data-setting='turnSeconds'] .stepper-value") == "60 s"
        spin.send_keys(Keys.HOME)
        assert ana.text("#create-dialog [data-setting='turnSeconds'] .stepper-value") == "Off"
        spin.send_keys(Keys.ARROW_UP)
        assert ana.text("#create-dialog [data-setting='turnSeconds'] .stepper-value") == "10 s"
        spin.send_keys(Keys.ARROW_DOWN)
        assert ana.text("#create-dialog [data-setting='turnSeconds'] .stepper-value") == "Off"
        shot(ana, "04-create-dialog")
        return ana.submit_create_dialog()
    code = suite.require(checks.run("create a Snowman room with stepper settings; the URL becomes /r/CODE",
                                    create_snowman_room))

    def second_player_joins_by_link():
        # Bob plays in the dark theme with a purple accent, so the screenshots cover both themes.
        bob.open("/")
        bob.js("localStorage.setItem('wordrooms.prefs', JSON.stringify({theme: 'dark', accent: 'purple'}))")
        bob.open(f"/r/{code.lower()}")
        bob.wait_visible("#name-form")
        shot(bob, "04b-name-prompt")
        bob.type_into("#name-input", "Bob", enter=True)
        bob.wait_visible("#word .tile")
        for page in (ana, bob):
            page.wait(lambda p=page: len(p.finds("#member-list .member")) == 2, "two members")
        assert bob.js("return location.pathname") == f"/r/{code}"
        assert bob.text("#room-code") == code
        names = bob.js("return [...document.querySelectorAll('#member-list .member-name')].map(e => e.textContent)")
        assert names == ["Ana", "Bob (you)"], names
        assert "Host" in ana.text("#member-list .member"), "host badge"
        assert bob.js("return localStorage.getItem('wordrooms.prefs')").find('"Bob"') > 0, "name remembered"
    checks.run("a second player opens the link, gives a name and joins", second_player_joins_by_link)

    def copy_link():
        ana.click("#copy-link")
        ana.wait(lambda: "Copied" in ana.text("#copy-link") or ana.visible(".toast"), "copy feedback")
    checks.run("the copy-link button copies or shows the link", copy_link)

    # --- Snowman games -----------------------------------------------------------------------------------------
    players = [ana, bob]

    def page_with_turn():
        for _ in range(50):
            for page in players:
                if page.js("return document.querySelector('#turn')?.dataset.mine") == "true" and page.visible("#turn"):
                    return page
            time.sleep(0.1)
        raise AssertionError("nobody has the turn")

    def play_game(want_loss, on_keyboard_every=3, screenshot_after=None):
        moves = 0
        while ana.js("return document.querySelector('#status-line').dataset.status") == "inProgress":
            page = page_with_turn()
            view = page.snowman_view()
            letter = solver.letter(view["tiles"], view["guessed"], want_loss)
            before = len(view["guessed"])
            if moves % on_keyboard_every == 2:
                page.click(f".key[data-letter='{letter}']")
            else:
                page.press(letter.lower())
            for other in players:
                other.wait(lambda o=other: len(o.snowman_view()["guessed"]) > before, f"guess {letter} to show")
            moves += 1
            if screenshot_after is not None and moves == screenshot_after:
                shot(ana, "05a-snowman-first-game")
            assert moves < 40, "game does not end"
        for page in players:
            page.wait(lambda p=page: p.snowman_view()["line"] == ana.snowman_view()["line"], "the end on both pages")
        return ana.js("return document.querySelector('#status-line').dataset.status")

    def start_next_game_with_enter():
        assert ana.visible("#new-game"), "New game shown to the host"
        assert not bob.visible("#new-game"), "not to others"
        assert "Waiting for Ana" in (bob.text("#waiting-host") or ""), bob.text("#waiting-host")
        number = len(ana.snowman_view()["history"])
        ana.js("document.activeElement.blur()")
        ana.press(Keys.ENTER)
        ana.wait(lambda: ana.js("return document.querySelector('#status-line').dataset.status") == "inProgress",
                 "Enter to start the next game")
        for page in players:
            page.wait(lambda p=page: all(not letter for letter, _ in p.snowman_view()["tiles"]), "a fresh word")
        assert len(ana.snowman_view()["history"]) == number
        visibility = ana.js("const b = document.querySelector('#new-game'); return [getComputedStyle(b).visibility, b.disabled, b.isConnected]")
        assert visibility == ["hidden", True, True], visibility
        ana.wait(lambda: ana.js("return document.activeElement.id") == "guess-input", "focus on the guess input")

    outcomes = {}
    def win_and_lose():
        first = True
        for game in range(1, 9):
            want_loss = "won" in outcomes and "lost" not in outcomes
            result = play_game(want_loss, screenshot_after=2 if first else None)
            first = False
            views = [page.snowman_view() for page in players]
            assert views[0] == views[1], f"pages differ after game {game}: {views[0]} vs {views[1]}"
            if result not in outcomes:
                outcomes[result] = views[0]
                if result == "lost":
                    shot(ana, "06-snowman-lost")
                else:
                    shot(bob, "07-snowman-won")
            if "won" in outcomes and "lost" in outcomes:
                return
            start_next_game_with_enter()
        raise AssertionError(f"only saw {sorted(outcomes)} in 8 games")
    checks.run("Snowman games end won and lost, identically on both pages", win_and_lose)

    def game_sockets_compressed():
        guesses = sum(len(view["guessed"]) for view in outcomes.values())
        for page in players:
            handshakes = page.expect_compressed_game_sockets(no_reconnects=True)
            frames = handshakes[-1][4]
            assert frames >= guesses, f"{page.name}: {frames} text frames on the game socket, fewer than the guesses"
            # Chromium writes its NetLog in batches, so the newest frames may not be in it yet: the count of the
            # games' patches received with RSV1 is checked at the end of the suite.
            received, received_compressed, sent, sent_compressed = page.text_frames()
            assert received_compressed > 0, f"{page.name}: none of {received} text frames was received compressed"
            assert sent_compressed > 0, f"{page.name}: Chromium sent none of its {sent} text frames compressed"
            print(f"     {page.name}: {len(handshakes)} game socket(s), offer {handshakes[-1][1]!r}, answer "
                  f"{handshakes[-1][3]!r}; NetLog: {received_compressed} of {received} text frames received with "
                  f"RSV1, {sent_compressed} of {sent} sent", flush=True)
    checks.run("the games were played over permessage-deflate: each game socket's 101, as Chromium received it, "
               "says " + GAME_EXTENSIONS + ", patches arrived with RSV1, and no socket failed",
               game_sockets_compressed)

    def lost_game_shows_missing_letters_in_red():
        view = outcomes["lost"]
        missed = [letter for letter, is_missed in view["tiles"] if is_missed]
        assert missed and all(missed), view["tiles"]
        color = ana.js("const t = document.querySelector('#word .tile.is-missed'); return t ? getComputedStyle(t).color : null")
        if color:  # the lost game may not be the last one shown
            red, green, blue = [int(part) for part in color[color.index("(") + 1:color.index(")")].split(",")[:3]]
            assert red > 150 and green < 80, color
        assert view["stage"] == "3", view["stage"]
    checks.run("a lost game shows the missing letters in red boxes and the melted snowman", lost_game_shows_missing_letters_in_red)

    def history_lists_finished_games():
        buttons = ana.finds("#history-list button")
        assert len(buttons) >= 2, len(buttons)
        last = buttons[0]
        word = last.find_element(By.CSS_SELECTOR, ".history-name").text
        last.click()
        ana.wait_visible("#history-detail")
        assert ana.text("#history-detail .history-word") == word
        assert "Game" in ana.text("#history-detail .history-result")
        assert ana.finds("#history-detail li"), "scores in the detail"
    checks.run("the history sidebar shows a finished game's word, result and scores", history_lists_finished_games)

    mobile = None

    def phone():
        nonlocal mobile
        if mobile is None:
            mobile = suite.add(Page("Cleo", args.base_url, width=360, height=740, phone=True))
        return mobile

    def phone_watches_snowman():
        cleo = phone()
        cleo.open(f"/r/{code}")
        cleo.wait_visible("#name-form")
        cleo.type_into("#name-input", "Cleo")
        cleo.click("#watch-button")
        cleo.wait_visible("#word .tile")
        width = cleo.js("return [document.documentElement.scrollWidth, window.innerWidth]")
        assert width == [360, 360], f"no sideways scrolling at 360px: {width}"
        assert cleo.snowman_view()["tiles"] == ana.snowman_view()["tiles"]
        assert cleo.js("return document.querySelector('#guess-input').disabled") is True, "spectators do not guess"
        shot(cleo, "10a-mobile-360-snowman")
        cleo.js("document.querySelector('.keyboard').scrollIntoView({block: 'center'})")
        shot(cleo, "10b-mobile-360-snowman-keyboard", top=False)
        cleo.click("#leave-room")
        cleo.click("#leave-confirm")  # Leave asks first (Back keeps the seat instead)
        cleo.wait_visible("#create-room")
        ana.wait(lambda: len(ana.finds("#member-list .member")) == 2, "the spectator gone")
    checks.run("a 360 px phone watches the Snowman room without sideways scrolling", phone_watches_snowman)

    def host_settings_and_countdown():
        plus = "#host-settings [data-setting='turnSeconds'] .stepper-button:last-of-type"
        for _ in range(5):
            ana.click(plus)
        assert ana.text("#host-settings [data-setting='turnSeconds'] .stepper-value") == "30 s"
        ana.click("#save-settings")
        bob.wait(lambda: "30 s" in (bob.text("#host-settings .settings-summary") or ""), "the new settings for everyone")
        assert not bob.visible("#save-settings"), "only the host edits settings"
        start_next_game_with_enter()
        for page in players:
            page.wait(lambda p=page: p.visible("#turn-countdown") or p.js("return document.querySelector('#turn').hidden") is True,
                      "the countdown")
        timer_page = page_with_turn()
        shot(timer_page, "05-snowman-in-progress")
        first = int(timer_page.text("#turn-countdown").split(":")[1])
        assert 25 <= first <= 30, first
        time.sleep(1.3)
        second = int(timer_page.text("#turn-countdown").split(":")[1])
        assert second < first, (first, second)
    checks.run("host settings apply to the next game and the turn countdown runs", host_settings_and_countdown)

    def keyboard_and_turn_rules():
        page = page_with_turn()
        other = bob if page is ana else ana
        before = len(page.snowman_view()["guessed"])
        other.press("q")
        other.wait(lambda: "Not your turn" in (other.text("#guess-error") or ""), "a not-your-turn message")
        page.press("e")
        page.wait(lambda: len(page.snowman_view()["guessed"]) == before + 1, "the guess")
        assert not other.find(".key[data-letter='E']").is_enabled(), "used letters are disabled"
    checks.run("typing guesses only on your turn; used keys are disabled", keyboard_and_turn_rules)

    def chat_between_players():
        ana.type_into("#chat-input", "good luck, Bob!", enter=True)
        bob.wait(lambda: "good luck, Bob!" in (bob.text("#chat-list") or ""), "the chat line")
        assert ana.js("return document.querySelector('#chat-input').value") == ""
        assert int(ana.js("return document.querySelector('#chat-input').maxLength")) == 200
    checks.run("chat lines reach the other player", chat_between_players)

    # --- Dropped connection and reload ---------------------------------------------------------------------------
    def reconnect_after_network_loss():
        bob.offline(True)
        bob.wait_visible("#connection-banner", timeout=5)
        assert "Reconnecting" in bob.text("#connection-banner"), bob.text("#connection-banner")
        assert bob.js("return document.querySelector('#chat-input').disabled") is True, "input disabled offline"
        shot(bob, "08-reconnecting")
        # The room moves on while Bob is away: Ana chats (and guesses if it is her turn).
        ana.wait(lambda: "away" in (ana.text("#member-list") or "") or "away" in (ana.text("#snowman-scores") or ""),
                 "Bob shown as away")
        ana.type_into("#chat-input", "are you there?", enter=True)
        ana.wait(lambda: "are you there?" in ana.text("#chat-list"), "Ana's chat line")
        time.sleep(1.5)
        bob.offline(False)
        bob.wait(lambda: not bob.visible("#connection-banner"), "the banner to go away", timeout=15)
        bob.wait(lambda: "are you there?" in (bob.text("#chat-list") or ""), "the missed chat line")
        for page in players:
            page.wait(lambda p=page: "away" not in (p.text("#member-list") or ""), "both connected again")
        assert ana.snowman_view() == bob.snowman_view(), "same game after resume"
        turn_page = next((p for p in players if p.js("return document.querySelector('#status-line').textContent").startswith("Your turn")), None)
        line = ana.snowman_view()["line"] or ""
        if "'s turn" in line:
            assert turn_page is not None, f"nobody is told it is their turn: {line}"
            assert line.startswith(turn_page.name), (line, turn_page.name)
        assert ana.text("#chat-list") == bob.text("#chat-list"), "same chat after resume"
    checks.run("a lost connection shows 'reconnecting' and resumes to the same state", reconnect_after_network_loss)

    def reload_resumes_the_seat():
        bob.driver.refresh()
        bob.wait_visible("#word .tile")
        bob.wait(lambda: len(bob.finds("#member-list .member")) == 2, "two members")
        names = bob.js("return [...document.querySelectorAll('#member-list .member-name')].map(e => e.textContent)")
        assert names == ["Ana", "Bob (you)"], names
        bob.wait(lambda: bob.snowman_view() == ana.snowman_view(), "the same game after reload")
    checks.run("reloading /r/CODE resumes the same seat", reload_resumes_the_seat)

    def make_host_and_back():
        ana.click("#member-list [data-action='host']")
        bob.wait(lambda: "Host" in bob.js("return document.querySelectorAll('#member-list .member')[1].textContent"), "Bob as host")
        bob.wait_visible("#save-settings")
        bob.click("#member-list [data-action='host']")
        ana.wait(lambda: "Host" in ana.js("return document.querySelectorAll('#member-list .member')[0].textContent"), "Ana as host again")
    checks.run("the host hands hosting over and gets it back", make_host_and_back)

    def leave_to_lobby():
        for page in players:
            page.click("#leave-room")
            page.click("#leave-confirm")  # Leave asks first (Back keeps the seat instead)
            page.wait(lambda p=page: p.js("return location.pathname") == "/", "the lobby")
            page.wait_visible("#create-room")
    checks.run("Leave returns both players to the lobby", leave_to_lobby)

    # --- Word Scramble -------------------------------------------------------------------------------------------
    def create_scramble_room_seen_live():
        bob.wait(lambda: bob.visible(".empty-state") or bob.visible(".room-list"), "Bob's lobby")
        ana.click("#create-room")
        ana.wait_visible("#create-dialog")
        ana.find("label.choice:has(input[value='scramble'])").click()
        ana.find("label.choice:has(input[value='private'])").click()
        ana.find("label.choice:has(input[value='public'])").click()
        shot(ana, "04c-create-dialog-scramble")
        for key in ("rounds", "roundSeconds"):
            spin = ana.find(f"#create-dialog [data-setting='{key}'] .stepper-value")
            spin.send_keys(Keys.HOME)
        assert ana.text("#create-dialog [data-setting='rounds'] .stepper-value") == "3"
        assert ana.text("#create-dialog [data-setting='roundSeconds'] .stepper-value") == "30 s"
        room = ana.submit_create_dialog(ready="#waiting-start")
        bob.click("#tab-scramble")
        bob.wait(lambda: room in (bob.text("#rooms-panel") or ""), "the new room in Bob's live lobby list")
        return room
    scramble_code = suite.require(checks.run("a new public Word Scramble room appears live in the other lobby",
                                             create_scramble_room_seen_live))

    def join_by_code_lowercase():
        bob.type_into("#join-code", scramble_code.lower(), enter=True)
        bob.wait_visible("#waiting-room")
        bob.wait(lambda: "Waiting for Ana" in (bob.text("#waiting-for-host") or ""), "waiting for the host")
        assert not bob.visible("#waiting-start")
    checks.run("join by code (lowercase) enters the room; only the host can start", join_by_code_lowercase)

    valid_words = []
    def play_a_round():
        ana.start_from_waiting_room()
        for page in players:
            page.wait(lambda p=page: len(p.scramble_view()["root"] or "") == 8 and p.visible("#word-input"), "a root word")
        root = ana.scramble_view()["root"].lower()
        assert bob.scramble_view()["root"].lower() == root
        letters = collections.Counter(root)
        valid = sorted({w for w in dictionary if 3 <= len(w) <= 8 and w != root and w.isascii() and w.isalpha()
                        and w.islower() and browser_support.spellable(w, letters)}, key=lambda w: (-len(w), w))
        assert len(valid) >= 5, valid
        valid_words.extend(valid)
        submitted = []
        for page, word in ((ana, valid[0]), (bob, valid[1]), (ana, valid[-1]), (bob, valid[2]), (ana, valid[3])):
            page.type_into("#word-input", word, enter=True)
            page.wait(lambda p=page, w=word: any(f.startswith(w + "/") for f in p.scramble_view()["found"]), f"{word} to be accepted")
            assert page.js("return document.querySelector('#word-input').value") == "", "the input clears"
            submitted.append(word)
        for page in players:
            page.wait(lambda p=page: len(p.scramble_view()["found"]) == len(submitted), "all words on both pages")
        view = ana.scramble_view()
        assert [entry.split("/")[0] for entry in view["found"]] == list(reversed(submitted)), view["found"]
        assert all(entry.split("/")[1] == str(len(entry.split("/")[0])) for entry in view["found"]), "length badges"
        assert view["progress"].startswith(f"{len(submitted)} of "), view["progress"]
        names = ana.js("return [...document.querySelectorAll('#found-list .found-by')].map(e => e.textContent)")
        assert names[0] == "you" and names[1] == "Bob", names
        return root, submitted
    played = checks.run("valid words are accepted, listed newest first with length and finder", play_a_round)

    def refused_words_show_the_server_error():
        root, submitted = played
        bob.type_into("#word-input", submitted[0], enter=True)
        bob.wait_visible("#word-error")
        assert "Already found" in bob.text("#word-error"), bob.text("#word-error")
        bob.type_into("#word-input", "zzzq", enter=True)
        bob.wait(lambda: "Not in the letters" in (bob.text("#word-error") or ""), "a cannot-spell error")
        nonsense = next(candidate for candidate in ("".join(p) for p in itertools.permutations(root[:5], 4))
                        if candidate not in set(valid_words))
        bob.type_into("#word-input", nonsense, enter=True)
        bob.wait(lambda: "Not a word" in (bob.text("#word-error") or ""), "a not-a-word error")
        assert nonsense in bob.text("#word-error")
        assert len(bob.scramble_view()["found"]) == len(submitted), "nothing added"
        shot(bob, "09-scramble-round")
        assert ana.scramble_view() == bob.scramble_view(), "both pages alike"
    checks.run("refused words show the server's title and message", refused_words_show_the_server_error)

    def phone_joins_with_the_remembered_name():
        mobile = phone()
        mobile.open(f"/r/{scramble_code}")
        # A phone shows the round's letters as its tiles (the big root word above them is left out there).
        mobile.wait_visible("#letter-tiles .letter-tile")
        assert not mobile.visible("#name-form"), "the name is asked only the first time"
        names = mobile.js("return [...document.querySelectorAll('#member-list .member-name')].map(e => e.textContent)")
        assert names == ["Ana", "Bob", "Cleo (you)"], names
        width = mobile.js("return [document.documentElement.scrollWidth, window.innerWidth]")
        assert width == [360, 360], f"no sideways scrolling at 360px: {width}"
        shot(mobile, "10c-mobile-360-scramble")
        mobile.js("document.querySelector('#found-list').scrollIntoView()")
        shot(mobile, "10d-mobile-360-scramble-words", top=False)
    checks.run("a 360 px phone joins by link with its remembered name, without sideways scrolling", phone_joins_with_the_remembered_name)

    def intermission_lists_missed_words():
        root, submitted = played
        for page in players:
            page.wait(lambda p=page: p.visible("#missed-card"), "the end of round 1", timeout=45)
        missed = ana.js("return [...document.querySelectorAll('#missed-list li')].map(e => e.textContent)")
        assert missed, "missed words listed"
        assert not set(missed) & set(submitted), "found words are not missed"
        assert set(missed) <= set(valid_words), set(missed) - set(valid_words)
        assert "Next round in" in ana.text("#round-timer"), ana.text("#round-timer")
        shot(ana, "11-scramble-intermission")
        assert bob.js("return document.querySelector('#word-input').disabled") is True or not bob.visible("#word-input")
    checks.run("between rounds the missed words are listed", intermission_lists_missed_words)

    def phone_lobby_and_kick():
        mobile = phone()
        ana.click("#member-list .member:nth-child(3) [data-action='kick']")
        ana.click("#member-list .member:nth-child(3) [data-action='kick']")
        mobile.wait(lambda: "Removed" in (mobile.text("main") or ""), "Cleo removed")
        shot(mobile, "12-mobile-360-removed")
        mobile.click(".prompt-card .button-primary")
        mobile.wait_visible("#create-room")
        width = mobile.js("return [document.documentElement.scrollWidth, window.innerWidth]")
        assert width == [360, 360], width
        mobile.wait(lambda: not mobile.visible("#connection-banner") and not mobile.visible(".toast"), "a calm lobby")
        shot(mobile, "13-mobile-360-lobby")
        ana.wait(lambda: len(ana.finds("#member-list .member")) == 2, "two members left")
    checks.run("the host removes a member (with confirmation); the phone lobby fits 360 px", phone_lobby_and_kick)

    def final_scoreboard():
        for page in players:
            page.wait(lambda p=page: p.visible("#final-scoreboard"), "the end of the match", timeout=110)
        rows = ana.js("return [...document.querySelectorAll('#final-scoreboard li')].map(e => e.textContent)")
        # Standings keep everyone who played in the match, Cleo (removed) included.
        assert rows[0].startswith("1") and any("Ana" in row for row in rows) and any("Bob" in row for row in rows), rows
        assert "Match over" in ana.text("#status-line"), ana.text("#status-line")
        assert ana.visible("#start-match") and "new match" in ana.text("#start-match")
        assert not bob.visible("#start-match")
        shot(ana, "14-scramble-final")
    checks.run("the match ends with the final standings and the host can start another", final_scoreboard)

    def every_game_socket_compressed():
        guesses = sum(len(view["guessed"]) for view in outcomes.values())
        for page in suite.pages:
            handshakes = page.expect_compressed_game_sockets(no_reconnects=False)
            line = f"     {page.name}: {len(handshakes)} game sockets, all compressed"
            if page.net_log:
                # Each guess of the won and the lost game reached both players as a patch, compressed.
                received, received_compressed, sent, sent_compressed = page.text_frames()
                assert received_compressed >= guesses, (f"{page.name}: {received_compressed} of {received} text "
                                                        f"frames received with RSV1, for {guesses} guesses")
                line += (f"; NetLog: {received_compressed} of {received} text frames received with RSV1, "
                         f"{sent_compressed} of {sent} sent")
            print(line, flush=True)
    checks.run("every game socket of the run (reconnects, reloads and the phone's included) negotiated "
               "permessage-deflate, and the games' patches reached both players with RSV1",
               every_game_socket_compressed)


if __name__ == "__main__":
    browser_support.main(run, __doc__.splitlines()[0])

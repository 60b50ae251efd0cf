"""Game night in the room's views (issue 14): what friends playing an evening see, in headless Chromium.

Ana (host, desktop 1280x800), Bob (a phone, 390x844 with touch) and Cleo (desktop, dark theme) play Snowman in one
room: the phone's keyboard fits the screen on Bob's turn with keys of 40 px and more and a "tap" hint, the host
skips a turn and the chat announces it as a system line, two games fill the room leaderboard ("Tonight"), the
Remove confirm button stays readable while hovered in both themes, a removed player is listed with "Allow back",
the host locks the room (a badge for everyone, a newcomer refused) and opens it, and members are greyed with
"status unknown" while the phone is offline. Then a Word Scramble room: the host is told to start the match, the
settings card says "Next match", and an intermission with no words found says so instead of "be the first".

Prints PASS/FAIL per check and exits non-zero if any failed. Screenshots (gn-*.png) go to --artifacts.

Usage: game_night_rooms_test.py --base-url http://127.0.0.1:PORT --repo REPO_ROOT --artifacts DIR
"""

import collections
import time

import browser_support
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys
from snowman_solver import SnowmanSolver, load_words

PHONE = (390, 844)
DESKTOP = (1280, 800)
MIN_KEY_PX = 40
MIN_CONTRAST = 4.5


# The effective colours of an element, as painted: backgrounds composited from the root down (on a 1x1 canvas,
# so light-dark(), color-mix() and alpha all resolve), then the text colour over them; and their contrast ratio.
CONTRAST_JS = """
const element = arguments[0];
const canvas = document.createElement('canvas');
canvas.width = 1; canvas.height = 1;
const ctx = canvas.getContext('2d', { willReadFrequently: true });
const chain = [];
for (let node = element; node instanceof Element; node = node.parentElement) chain.push(node);
ctx.fillStyle = '#ffffff';
ctx.fillRect(0, 0, 1, 1);
ctx.fillStyle = getComputedStyle(document.documentElement).colorScheme.includes('dark') ? '#000000' : '#ffffff';
for (const node of chain.reverse()) {
  const bg = getComputedStyle(node).backgroundColor;
  if (!bg || bg === 'transparent' || bg === 'rgba(0, 0, 0, 0)') continue;
  ctx.fillStyle = bg;
  ctx.fillRect(0, 0, 1, 1);
}
const back = [...ctx.getImageData(0, 0, 1, 1).data].slice(0, 3);
ctx.fillStyle = getComputedStyle(element).color;
ctx.fillRect(0, 0, 1, 1);
const fore = [...ctx.getImageData(0, 0, 1, 1).data].slice(0, 3);
const lum = (rgb) => {
  const [r, g, b] = rgb.map((v) => { const c = v / 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
const [a, b] = [lum(fore), lum(back)].sort((x, y) => y - x);
const style = getComputedStyle(element);
return { ratio: (a + 0.05) / (b + 0.05), fore, back, color: style.color, background: style.backgroundColor,
         opacity: style.opacity, text: element.textContent.trim() };
"""


class Page(browser_support.Page):
    """One browser session and helpers to read the app's DOM."""

    def __init__(self, name, base_url, width=1280, height=800, phone=False, home_theme="light"):
        super().__init__(name, base_url, width=width, height=height, phone=phone, exact_viewport=True)
        # The theme that themed screenshots switch back to.
        self.home_theme = home_theme

    def hover(self, css):
        element = self.find(css)
        self.js("arguments[0].scrollIntoView({block: 'center'})", element)
        ActionChains(self.driver).move_to_element(element).perform()
        time.sleep(0.35)  # the button's colour transition
        return element

    def contrast(self, css):
        time.sleep(0.3)  # colour transitions (0.15 s) finish first
        return self.js(CONTRAST_JS, self.find(css))

    def theme(self, theme):
        """Light or dark through the system preference (the pages' appearance setting is "system")."""
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
            "features": [{"name": "prefers-color-scheme", "value": theme}]})
        time.sleep(0.3)
        scheme = self.js("return getComputedStyle(document.body).backgroundColor")
        assert (scheme == "rgb(14, 19, 32)") == (theme == "dark"), f"{self.name}: the {theme} theme did not apply ({scheme})"

    def snowman(self):
        """The page's Snowman game (see browser_support.Page.snowman), with the scores by name (" · away" left out)."""
        view = super().snowman()
        view["scores"] = {name.replace(" · away", ""): points for name, points in view["scores"]}
        return view

    def leaderboard(self):
        return self.js("""
            return [...document.querySelectorAll('#snowman-leaderboard li')].map((li) => ({
              rank: Number(li.querySelector('.rank').textContent),
              name: li.querySelector('.score-name').textContent.replace(' (you)', ''),
              total: Number(li.querySelector('.score-value').textContent),
              record: li.querySelector('.leaderboard-record').textContent,
            }));""")

def run(suite, args):
    checks = suite.checks
    shot = suite.shot
    solver = SnowmanSolver(load_words(args.repo, "secrets.txt"))

    def themed_shots(page, name, top=True):
        """The same screen in the light and the dark theme."""
        for theme in ("light", "dark"):
            page.theme(theme)
            shot(page, f"{name}-{theme}", top)
        page.theme(page.home_theme)

    ana = suite.add(Page("Ana", args.base_url, *DESKTOP))
    bob = suite.add(Page("Bob", args.base_url, *PHONE, phone=True))
    cleo = suite.add(Page("Cleo", args.base_url, *DESKTOP, home_theme="dark"))
    players = [ana, bob, cleo]

    def prefs(page, name, theme):
        """Remembers the name; the appearance follows the system, which each page's emulation sets."""
        page.open("/")
        page.js("localStorage.setItem('wordrooms.prefs', JSON.stringify({name: arguments[0], theme: 'system', accent: 'blue'}))", name)
        page.theme(theme)

    # --- Snowman room with the default turn timer ------------------------------------------------------------
    def create_with_default_turn_timer():
        prefs(ana, "Ana", "light")
        ana.open("/")
        ana.click("#create-room")
        ana.wait_visible("#create-dialog")
        ana.find("label.choice:has(input[value='snowman'])").click()
        value = "#create-dialog [data-setting='turnSeconds'] .stepper-value"
        off = "#create-dialog [data-setting='turnSeconds'] .stepper-off"
        assert ana.text(value) == "60 s", ana.text(value)
        assert ana.find(off).get_attribute("aria-pressed") == "false"
        ana.find(off).click()
        assert ana.text(value) == "Off" and ana.find(off).get_attribute("aria-pressed") == "true", ana.text(value)
        ana.find(off).click()
        assert ana.text(value) == "60 s", "switching the timer on again brings back 60 s"
        themed_shots(ana, "desktop-create-dialog")
        return ana.submit_create_dialog()
    code = suite.require(checks.run("the create dialog's turn timer defaults to 60 s with an Off toggle",
                                    create_with_default_turn_timer))

    def others_join():
        for page, name, theme in ((bob, "Bob", "light"), (cleo, "Cleo", "dark")):
            prefs(page, name, theme)
            page.open(f"/r/{code}")
            page.wait_visible("#word .tile")
        for page in players:
            page.wait(lambda p=page: len(p.finds("#member-list .member")) == 3, "three members")
    checks.run("Bob (phone) and Cleo (dark) join by link", others_join)

    def turn_countdown_runs():
        ana.wait_visible("#turn-countdown")
        first = ana.text("#turn-countdown")
        minutes, seconds = (int(part) for part in first.split(":"))
        assert 50 <= minutes * 60 + seconds <= 60, first
        time.sleep(1.3)
        later = ana.text("#turn-countdown")
        assert later != first, (first, later)
        assert "seconds left" in ana.find("#turn-countdown").get_attribute("aria-label")
        assert cleo.visible("#turn-countdown"), "the others see the countdown too"
    checks.run("the turn countdown of the 60 s default timer runs for everyone", turn_countdown_runs)

    def page_with_turn(timeout=10):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for page in players:
                if page.snowman()["mine"]:
                    return page
            time.sleep(0.1)
        raise AssertionError("nobody has the turn")

    def guess_once(want_loss=False, avoid=None):
        page = page_with_turn()
        if avoid is not None and page is avoid:
            return None
        view = page.snowman()
        letter = solver.letter(view["tiles"], view["guessed"], want_loss)
        before = len(view["guessed"])
        if page.phone:
            page.click(f".key[data-letter='{letter}']")
        else:
            page.press(letter.lower())
        for other in players:
            other.wait(lambda o=other: len(o.snowman()["guessed"]) > before or o.snowman()["status"] != "inProgress",
                       f"guess {letter} to show")
        return page

    def bobs_turn():
        for _ in range(6):
            if bob.snowman()["mine"]:
                return
            guess_once(avoid=bob)
            bob.wait(lambda: bob.snowman()["mine"] or not ana.snowman()["mine"], "the turn to move", timeout=5)
        bob.wait(lambda: bob.snowman()["mine"], "Bob's turn")

    def phone_keyboard_fits():
        bobs_turn()
        bob.wait(lambda: "Tap a letter" in (bob.text("#guess-hint") or ""), "the tap hint")
        layout = bob.js("""
            const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom, r.width, r.height]; };
            return {
              viewport: [window.innerWidth, window.innerHeight], scroll: [window.scrollX, window.scrollY],
              coarse: matchMedia('(pointer: coarse)').matches,
              word: box(document.querySelector('#word')),
              figure: box(document.querySelector('.snowman-figure')),
              meter: box(document.querySelector('.wrong-meter')),
              keys: [...document.querySelectorAll('.key')].map((k) => [k.dataset.letter, ...box(k)]),
              inputShown: getComputedStyle(document.querySelector('#guess-input')).display !== 'none',
              sideways: document.documentElement.scrollWidth,
            };""")
        width, height = layout["viewport"]
        assert [width, height] == list(PHONE), layout["viewport"]
        assert layout["coarse"], "touch emulation makes the pointer coarse"
        assert layout["scroll"] == [0, 0], f"no scrolling: {layout['scroll']}"
        assert layout["sideways"] == width, f"no sideways scrolling: {layout['sideways']}"

        def inside(name, rect):
            left, top, right, bottom = rect[:4]
            assert left >= 0 and top >= 0 and right <= width + 0.5 and bottom <= height + 0.5, f"{name} off screen: {rect}"
        inside("the word", layout["word"])
        inside("the snowman", layout["figure"])
        inside("the wrong-guess meter", layout["meter"])
        assert len(layout["keys"]) == 26, len(layout["keys"])
        for letter, *rect in layout["keys"]:
            inside(f"key {letter}", rect)
            assert rect[4] >= MIN_KEY_PX and rect[5] >= MIN_KEY_PX, f"key {letter} is {rect[4]:.1f}x{rect[5]:.1f} px"
        rows = collections.Counter(round(rect[1]) for _, *rect in layout["keys"])
        assert max(rows.values()) <= 7, f"at most 7 keys a row: {sorted(rows.values())}"
        assert not layout["inputShown"], "no one-letter box (it would open the phone's own keyboard)"
        assert "Type a letter anywhere" not in bob.text("main")
        themed_shots(bob, "phone-snowman-your-turn")
        print(f"     smallest key {min(r[4] for _, *r in layout['keys']):.1f} px wide; keyboard bottom "
              f"{max(r[3] for _, *r in layout['keys']):.0f} of {height} px", flush=True)
    checks.run("on a 390x844 phone, on your turn the word, snowman and all keys fit without scrolling; keys >= 40 px; hint says tap",
               phone_keyboard_fits)

    def desktop_hint_says_type_or_click():
        page = ana if ana.snowman()["mine"] else None
        hint = ana.text("#guess-hint")
        assert hint in ("Type a letter or click one.", "Wait for your turn."), hint
        assert "Tap" not in hint
        assert ana.visible("#guess-input"), "desktop keeps the typed guess box"
        widths = ana.js("return [...document.querySelectorAll('.key')].map((k) => k.getBoundingClientRect().width)")
        assert min(widths) >= MIN_KEY_PX, min(widths)
        del page
    checks.run("on a desktop the hint says type or click and the QWERTY keys stay", desktop_hint_says_type_or_click)

    def host_skips_a_turn():
        assert bob.snowman()["mine"], "Bob has the turn"
        assert ana.visible("#skip-turn"), "the host sees Skip turn"
        assert not bob.visible("#skip-turn") and not cleo.visible("#skip-turn"), "only the host"
        assert "Bob" in ana.find("#skip-turn").get_attribute("aria-label")
        shot(ana, "desktop-snowman-skip-light")
        ana.click("#skip-turn")
        bob.wait(lambda: not bob.snowman()["mine"], "Bob's turn to pass")
        for page in players:
            page.wait(lambda p=page: any("skipped" in line for line in p.texts("#chat-list .chat-line.is-system .chat-text")),
                      "the skip announced in the chat")
        line = cleo.js("""const li = [...document.querySelectorAll('#chat-list .chat-line.is-system')].pop();
            return {text: li.querySelector('.chat-text').textContent, name: li.querySelector('.chat-name').hidden,
                    align: getComputedStyle(li).textAlign, mine: li.classList.contains('is-mine')};""")
        assert line["text"] == "Bob's turn was skipped by the host", line
        assert line["name"] and line["align"] == "center" and not line["mine"], line
        contrast = cleo.contrast("#chat-list .chat-line.is-system .chat-text")
        assert contrast["ratio"] >= MIN_CONTRAST, contrast
        cleo.js("document.querySelector('#chat-list').scrollIntoView({block: 'center'})")
        shot(cleo, "desktop-chat-system-line-dark", top=False)
    checks.run("the host skips Bob's turn and the chat announces it as a centred system line", host_skips_a_turn)

    # --- Two games for the leaderboard -------------------------------------------------------------------------
    def play_to_end(want_loss):
        moves = 0
        while ana.snowman()["status"] == "inProgress":
            guess_once(want_loss)
            moves += 1
            assert moves < 40, "the game does not end"
        for page in players:
            page.wait(lambda p=page: p.snowman()["status"] != "inProgress", "the end on every page")
        return ana.snowman()

    results = []

    def leaderboard_after_two_games():
        assert ana.visible("#leaderboard-empty"), "before any finished game the leaderboard says how it works"
        first = play_to_end(want_loss=False)
        results.append(first)
        ana.wait(lambda: len(ana.leaderboard()) == 3, "three leaderboard rows after game 1")
        ana.js("document.activeElement.blur()")
        ana.press(Keys.ENTER)
        ana.wait(lambda: ana.snowman()["status"] == "inProgress" and len(ana.snowman()["history"]) == 1, "game 2")
        second = play_to_end(want_loss=True)
        results.append(second)
        expected = {name: first["scores"].get(name, 0) + second["scores"].get(name, 0) for name in ("Ana", "Bob", "Cleo")}
        ana.wait(lambda: all("2 games" in row["record"] for row in ana.leaderboard()), "two games counted")
        rows = ana.leaderboard()
        assert {row["name"]: row["total"] for row in rows} == expected, (rows, expected)
        assert [row["total"] for row in rows] == sorted((row["total"] for row in rows), reverse=True), rows
        for game in (first, second):
            top = max(game["scores"].values())
            for name, score in game["scores"].items():
                assert score <= top
        wins = {row["name"]: int(row["record"].split(" ")[0]) for row in rows}
        # A game's top scorers win it, ties included; a game nobody scored in has no winner.
        expected_wins = {name: sum(1 for game in (first, second)
                                   if max(game["scores"].values()) > 0
                                   and game["scores"].get(name, 0) == max(game["scores"].values()))
                         for name in expected}
        assert wins == expected_wins, (wins, expected_wins)
        assert rows[0]["rank"] == 1
        assert bob.leaderboard() == rows and cleo.leaderboard() == rows, "everyone sees the same leaderboard"
        assert ana.text("#leaderboard-heading") == "Tonight" and "Room leaderboard" in ana.text("#leaderboard-card")
        ana.js("document.querySelector('#leaderboard-card').scrollIntoView({block: 'center'})")
        shot(ana, "desktop-leaderboard-light", top=False)
        cleo.js("document.querySelector('#leaderboard-card').scrollIntoView({block: 'center'})")
        shot(cleo, "desktop-leaderboard-dark", top=False)
        bob.js("document.querySelector('#leaderboard-card').scrollIntoView({block: 'start'})")
        themed_shots(bob, "phone-leaderboard", top=False)
        shot(bob, "phone-snowman-game-over-light")
        shot(ana, "desktop-snowman-game-over-light")
        shot(cleo, "desktop-snowman-game-over-dark")
    checks.run("after two games the room leaderboard shows totals and games won beside this game's scores",
               leaderboard_after_two_games)

    # --- Remove, the confirm button's colours, removed players, allow back -----------------------------------
    cleo_kick = "#member-list .member:nth-child(3) [data-action='kick']"

    def confirm_button_readable():
        readings = {}
        away = "#members-heading"

        def rest():
            ActionChains(ana.driver).move_to_element(ana.find(away)).perform()
            time.sleep(0.35)

        for theme in ("light", "dark"):
            ana.theme(theme)
            rest()
            readings[f"{theme} Remove"] = ana.contrast(cleo_kick)
            ana.hover(cleo_kick)
            readings[f"{theme} Remove hovered"] = ana.contrast(cleo_kick)
            ana.find(cleo_kick).click()
            ana.wait(lambda: ana.text(cleo_kick) == "Sure?", "the confirm button")
            readings[f"{theme} Sure? pressed"] = ana.contrast(cleo_kick)
            ana.hover(cleo_kick)
            readings[f"{theme} Sure? hovered"] = ana.contrast(cleo_kick)
            shot(ana, f"desktop-remove-sure-hover-{theme}", top=False)
            rest()
            readings[f"{theme} Sure?"] = ana.contrast(cleo_kick)
            # Keyboard focus (Tab from the button before it) shows the focus ring, and the colours stay readable.
            ana.js("const kick = document.querySelector(arguments[0]);"
                   "const row = [...kick.closest('.member').querySelectorAll('button')];"
                   "row[row.indexOf(kick) - 1].focus()", cleo_kick)
            ana.press(Keys.TAB)
            assert ana.js("return document.activeElement.dataset.action") == "kick", "Tab reaches Sure?"
            readings[f"{theme} Sure? focused"] = ana.contrast(cleo_kick)
            ring = ana.js("const s = getComputedStyle(document.activeElement); return [s.outlineStyle, s.outlineWidth]")
            assert ring[0] == "solid" and ring[1] != "0px", f"a focus ring on Sure?: {ring}"
            ana.wait(lambda: ana.text(cleo_kick) == "Remove", "the confirm to time out", timeout=6)
            ana.js("document.activeElement.blur()")
            # Disabled (offline): muted but still readable, not faded to half opacity.
            ana.js("document.querySelector(arguments[0]).disabled = true", cleo_kick)
            readings[f"{theme} Remove disabled"] = ana.contrast(cleo_kick)
            ana.js("document.querySelector(arguments[0]).disabled = false", cleo_kick)
        ana.theme("light")
        for name, reading in readings.items():
            print(f"     {name}: {reading['ratio']:.2f}:1 ({reading['color']} on {reading['background']})", flush=True)
        bad = {name: round(r["ratio"], 2) for name, r in readings.items() if r["ratio"] < MIN_CONTRAST or r["opacity"] != "1"}
        assert not bad, bad
        for theme in ("light", "dark"):
            assert readings[f"{theme} Sure? hovered"]["back"] == readings[f"{theme} Sure? focused"]["back"] \
                or readings[f"{theme} Sure? hovered"]["ratio"] >= MIN_CONTRAST
            assert readings[f"{theme} Sure?"]["back"] != readings[f"{theme} Remove"]["back"], "Sure? looks armed"
    checks.run("the Remove and Sure? buttons keep 4.5:1 contrast hovered, focused and armed, in both themes",
               confirm_button_readable)

    def remove_lists_the_player():
        ana.click(cleo_kick)
        ana.wait(lambda: ana.text(cleo_kick) == "Sure?", "the confirm button")
        ana.click(cleo_kick)
        cleo.wait(lambda: "Removed" in (cleo.text("main") or ""), "Cleo removed")
        shot(cleo, "desktop-removed-dark")
        ana.wait(lambda: len(ana.finds("#member-list .member")) == 2, "two members left")
        ana.wait_visible("#removed-players")
        assert ana.texts("#ban-list .ban-name") == ["Cleo"], ana.texts("#ban-list .ban-name")
        assert "Allow back" in ana.text("#ban-list button")
        assert not bob.visible("#removed-players") and not bob.visible("#lock-room"), "only the host sees the host tools"
        ana.js("document.querySelector('#members-card').scrollIntoView({block: 'center'})")
        themed_shots(ana, "desktop-members-removed-list", top=False)
    checks.run("a removed player is listed under Removed players with Allow back (host only)", remove_lists_the_player)

    def removed_player_stays_out_on_reload():
        cleo.driver.refresh()
        cleo.wait(lambda: cleo.visible(".prompt-card") or cleo.visible("#word .tile"), "the page after reload")
        time.sleep(1)
        assert not cleo.visible("#word .tile"), "the removed player is not back in the room"
        assert len(ana.finds("#member-list .member")) == 2
    checks.run("a removed player who reloads stays out", removed_player_stays_out_on_reload)

    def allow_back():
        ana.click("#ban-list button")
        ana.wait(lambda: not ana.visible("#removed-players"), "the removed list to empty")
        cleo.open(f"/r/{code}")
        cleo.wait(lambda: cleo.visible("#word .tile") or cleo.visible("#name-form"), "Cleo's page")
        if cleo.visible("#name-form"):
            cleo.type_into("#name-input", "Cleo", enter=True)
        cleo.wait_visible("#word .tile")
        ana.wait(lambda: len(ana.finds("#member-list .member")) == 3, "Cleo back in")
    checks.run("Allow back lifts the ban: the player joins again", allow_back)

    # --- Lock ------------------------------------------------------------------------------------------------
    def lock_room():
        assert not any(page.visible("#locked-badge") for page in players), "no badge while open"
        assert ana.find("#lock-room").get_attribute("aria-checked") == "false"
        ana.click("#lock-room")
        for page in players:
            page.wait(lambda p=page: p.visible("#locked-badge"), "the Locked badge")
        assert ana.find("#lock-room").get_attribute("aria-checked") == "true"
        assert bob.text("#locked-badge") == "Locked"
        dan = suite.add(Page("Dan", args.base_url, *DESKTOP))
        prefs(dan, "Dan", "light")
        dan.open(f"/r/{code}")
        dan.wait(lambda: "lock" in (dan.text("main") or "").lower() and not dan.visible("#word .tile"), "Dan refused: locked")
        shot(dan, "desktop-locked-refused-light")
        assert len(ana.finds("#member-list .member")) == 3, "nobody new"
        cleo.driver.refresh()
        cleo.wait_visible("#word .tile")
        assert cleo.visible("#locked-badge"), "a member already in comes back while locked"
        ana.js("document.querySelector('#members-card').scrollIntoView({block: 'center'})")
        themed_shots(ana, "desktop-members-locked", top=False)
        bob.js("document.querySelector('#members-card').scrollIntoView({block: 'start'})")
        themed_shots(bob, "phone-members-locked", top=False)
        ana.click("#lock-room")
        for page in players:
            page.wait(lambda p=page: not p.visible("#locked-badge"), "the badge gone")
        dan.quit()
        suite.pages.remove(dan)
    checks.run("the host locks the room: a Locked badge for everyone, a newcomer refused, members resume; then unlocks",
               lock_room)

    # --- Offline ---------------------------------------------------------------------------------------------
    def offline_members_greyed():
        assert bob.js("return [...document.querySelectorAll('#member-list .dot')].every((d) => d.dataset.connected === 'true')")
        bob.offline(True)
        bob.wait(lambda: bob.js("return document.body.classList.contains('is-offline')"), "the page offline", timeout=6)
        bob.wait(lambda: bob.visible("#members-offline-note"), "the offline note")
        members = bob.js("""return [...document.querySelectorAll('#member-list .member')].map((m) => ({
            presence: m.dataset.presence, title: m.title, dot: m.querySelector('.dot').dataset.connected,
            shadow: getComputedStyle(m.querySelector('.dot')).backgroundColor}))""")
        assert all(m["presence"] == "unknown" and m["dot"] == "unknown" for m in members), members
        assert all(m["title"] == "Status unknown while you are offline" for m in members), members
        assert all(m["shadow"] in ("rgba(0, 0, 0, 0)", "transparent") for m in members), "no green dot"
        scores = bob.js("return [...document.querySelectorAll('#snowman-scores .dot')].map((d) => d.dataset.connected)")
        assert scores and all(state == "unknown" for state in scores), scores
        assert bob.text("#members-offline-note") == "Status unknown while you are offline"
        bob.js("document.querySelector('#members-card').scrollIntoView({block: 'start'})")
        themed_shots(bob, "phone-members-offline", top=False)
        bob.offline(False)
        bob.wait(lambda: not bob.visible("#members-offline-note"), "back online", timeout=15)
        bob.wait(lambda: bob.js("return [...document.querySelectorAll('#member-list .member')].every((m) => m.dataset.presence === 'here')"),
                 "members shown as here again", timeout=10)
    checks.run("while the phone is offline every member is greyed with 'Status unknown while you are offline'",
               offline_members_greyed)

    def host_settings_off_toggle():
        assert ana.text("#next-settings-heading") == "Next game"
        value = "#host-settings [data-setting='turnSeconds'] .stepper-value"
        off = "#host-settings [data-setting='turnSeconds'] .stepper-off"
        assert ana.text(value) == "60 s", ana.text(value)
        ana.click(off)
        assert ana.text(value) == "Off" and ana.find("#save-settings").is_enabled()
        ana.click(off)
        assert ana.text(value) == "60 s" and not ana.find("#save-settings").is_enabled()
        assert "60 s" in cleo.text("#host-settings .settings-summary")
        ana.js("document.querySelector('#host-settings').scrollIntoView({block: 'center'})")
        themed_shots(ana, "desktop-host-settings", top=False)
    checks.run("the host settings show the 60 s turn timer with an Off toggle; Snowman says 'Next game'",
               host_settings_off_toggle)

    def leave_all():
        readings = {}
        for page in players:
            page.click("#leave-room")
            if page is ana:
                # The other confirm button of the room: "Yes, leave" is readable hovered in both themes too.
                page.wait_visible("#leave-confirm")
                for theme in ("light", "dark"):
                    page.theme(theme)
                    page.hover("#leave-confirm")
                    readings[f"{theme} Yes, leave hovered"] = page.contrast("#leave-confirm")
                    shot(page, f"desktop-leave-confirm-hover-{theme}", top=False)
                page.theme("light")
            if page.visible("#leave-confirm"):
                page.click("#leave-confirm")
            page.wait(lambda p=page: p.js("return location.pathname") == "/", "the lobby")
        for name, reading in readings.items():
            print(f"     {name}: {reading['ratio']:.2f}:1 ({reading['color']} on {reading['background']})", flush=True)
        bad = {name: round(r["ratio"], 2) for name, r in readings.items() if r["ratio"] < MIN_CONTRAST}
        assert not bad, bad
    checks.run("everyone leaves the Snowman room ('Yes, leave' readable while hovered in both themes)", leave_all)

    # --- Word Scramble wording -------------------------------------------------------------------------------
    def scramble_host_wording():
        ana.wait_visible("#create-room")
        ana.click("#create-room")
        ana.wait_visible("#create-dialog")
        ana.find("label.choice:has(input[value='scramble'])").click()
        for key in ("rounds", "roundSeconds"):
            ana.find(f"#create-dialog [data-setting='{key}'] .stepper-value").send_keys(Keys.HOME)
        room = ana.submit_create_dialog(ready="#waiting-start")
        bob.open(f"/r/{room}")
        bob.wait_visible("#waiting-room")
        ana.wait(lambda: len(ana.finds("#member-list .member")) == 2, "Bob in")
        assert ana.text("#waiting-start") == "Start the match", ana.text("#waiting-start")
        assert not ana.visible("#waiting-for-host"), "the host is not told to wait for the host"
        bob.wait(lambda: "Waiting for Ana" in (bob.text("#waiting-for-host") or ""), "Bob waits for Ana")
        assert ana.text("#next-settings-heading") == "Next match", ana.text("#next-settings-heading")
        assert ana.text("#save-settings") == "Save for next match", ana.text("#save-settings")
        assert bob.text("#next-settings-heading") == "Next match"
        themed_shots(ana, "desktop-scramble-lobby-host")
        themed_shots(bob, "phone-scramble-lobby")
        return room
    scramble_code = checks.run("Word Scramble: the host is told to start the match; the settings card says 'Next match'",
                               scramble_host_wording)

    def intermission_wording():
        ana.start_from_waiting_room()
        for page in (ana, bob):
            page.wait(lambda p=page: p.visible("#word-input"), "round 1")
        assert "be the first" in ana.text("#found-empty"), "during a round the empty list invites"
        themed_shots(bob, "phone-scramble-round")
        themed_shots(ana, "desktop-scramble-round")
        for page in (ana, bob):
            page.wait(lambda p=page: p.visible("#missed-card"), "the intermission", timeout=45)
        text = ana.text("#found-empty")
        assert ana.visible("#found-empty"), "the empty found list explains itself"
        assert "be the first" not in text, text
        assert text.startswith("Nobody found a word in round 1."), text
        assert "Next round starts in" in text, text
        assert ana.text("#found-title") == "Round 1 results", ana.text("#found-title")
        themed_shots(ana, "desktop-scramble-intermission")
        bob.js("document.querySelector('#found-empty').scrollIntoView({block: 'center'})")
        themed_shots(bob, "phone-scramble-intermission", top=False)
    if scramble_code:
        checks.run("between rounds an empty found list says nobody found a word and when the next round starts",
                   intermission_wording)


if __name__ == "__main__":
    browser_support.main(run, __doc__.splitlines()[0], shot_prefix="gn-")

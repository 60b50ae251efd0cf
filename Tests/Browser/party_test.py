"""Party night (issue 15): getting friends in and playing on phones, in headless Chromium.

Ana hosts on a desktop (1280x800), Bob plays on a phone (390x844, touch) and Cleo on a desktop in the dark theme.
From the lobby Ana creates a Snowman room with her own ten words, which opens on the waiting room: the code in
large type, the link with Copy (and Share where the browser has it), a QR code that zbarimg decodes to the room's
link, the players arriving live (a reaction floats over its sender's name), Start for the host and "Waiting for
Ana to start" for the others. Ana starts; on Bob's turn the tab title
says "Your turn · Snowman CODE" (and comes back after), the page pulses (not with reduced motion), and his letter keyboard is on screen without scrolling,
with the word and the snowman above it. The Invite sheet in the room header shows the code and QR during play.
The word is solved: the snowman is whole again and grins, the page celebrates, and the room leaderboard stands on a
podium. Then a Word Scramble match of three short rounds: Bob builds words by tapping the root's letter tiles
(tap to add, tap a built letter to take it back, Shuffle, Clear, Submit), everyone presses Ready between rounds so
the next one starts at once, and the final screen shows the podium and every round's root and missed words.

Screenshots (party-*.png, both themes) of every new screen at both sizes go to --artifacts.

Usage: party_test.py --base-url http://127.0.0.1:PORT --repo REPO_ROOT --artifacts DIR
"""

import collections
import os
import subprocess
import time

import browser_support
from selenium.webdriver.common.keys import Keys
from snowman_solver import SnowmanSolver, load_words

#: The host's own words for the Snowman room (W1's create dialog: "Play with: my words").
CUSTOM_WORDS = ["PUMPKIN", "SNOWBALL", "MITTENS", "SLEDGE", "COCOA", "SCARF", "ICICLE", "FROSTY", "WINTER", "BLIZZARD"]
PHONE = (390, 844)
DESKTOP = (1280, 800)
#: Longest a Word Scramble round of the shortest length (30 s) with its break can take, with some slack.
ROUND_TIMEOUT = 75


class Page(browser_support.Page):
    def __init__(self, name, base_url, width, height, phone=False, home_theme="light"):
        super().__init__(name, base_url, width=width, height=height, phone=phone, exact_viewport=True)
        self.home_theme = home_theme

    def viewport(self):
        return self.js("return {width: window.innerWidth, height: window.innerHeight,"
                       "scrollTop: document.scrollingElement.scrollTop}")

    def tap(self, css):
        """Clicks without scrolling first (a thumb on what is on screen)."""
        self.find(css).click()

    def waiting_players(self):
        return self.texts("#waiting-players .arrival-name")


def decode_qr(path):
    """The text of the QR code in a PNG, by Debian's zbarimg (zbar-tools)."""
    result = subprocess.run(["zbarimg", "--raw", "-q", path], capture_output=True, text=True, timeout=30, check=False)
    return result.stdout.strip()


def run(suite, args):
    checks = suite.checks
    shot = suite.shot
    solver = SnowmanSolver(CUSTOM_WORDS)
    dictionary = [word for word in load_words(args.repo, "dictionary.txt") if word.isalpha() and word.isascii()]

    ana = suite.add(Page("Ana", args.base_url, *DESKTOP))
    bob = suite.add(Page("Bob", args.base_url, *PHONE, phone=True))
    cleo = suite.add(Page("Cleo", args.base_url, *DESKTOP, home_theme="dark"))
    everyone = [ana, bob, cleo]

    def themed_shots(page, name, top=True):
        """The same screen in the light and the dark theme, named by size."""
        size = "phone" if page.phone else "desktop"
        for theme in ("light", "dark"):
            page.theme(theme)
            shot(page, f"{size}-{name}-{theme}", top)
        page.theme(page.home_theme)

    def prefs(page, name):
        page.open("/")
        page.js("localStorage.setItem('wordrooms.prefs', JSON.stringify({name: arguments[0], theme: 'system', accent: 'blue'}))", name)
        page.theme(page.home_theme)

    def create_room(game, keys, words=None):
        """Ana creates a private room of `game` from the lobby, the steppers of `keys` at their lowest (HOME) or
        highest (END), with only her own `words` when given; returns the code once the waiting room shows."""
        ana.open("/")
        ana.click("#create-room")
        ana.wait_visible("#create-dialog")
        ana.find(f"label.choice:has(input[value='{game}'])").click()
        ana.find("label.choice:has(input[value='private'])").click()
        for key, end in keys.items():
            ana.find(f"#create-dialog [data-setting='{key}'] .stepper-value").send_keys(end)
        if words:
            ana.click("#create-custom-words")
            ana.find("#create-custom-words").send_keys("\n".join(words))
            ana.wait(lambda: "10" in (ana.text("#create-custom-words-status") or ""), "the list counted")
            ana.click("label:has(#create-source-custom)")
            assert ana.find("#create-source-custom").is_selected(), "only my words"
        ana.find("#create-submit").click()
        ana.wait(lambda: ana.room_code() is not None and ana.visible("#waiting-room"), "the waiting room")
        return ana.room_code()

    # --- The waiting room --------------------------------------------------------------------------------------
    def lobby_to_waiting_room():
        for page, name in ((ana, "Ana"), (bob, "Bob"), (cleo, "Cleo")):
            prefs(page, name)
        ana.open("/")
        ana.wait(lambda: ana.visible(".empty-state") or ana.visible(".room-list"), "the lobby")
        themed_shots(ana, "lobby")
        code = create_room("snowman", {"maxWrongGuesses": Keys.END}, words=CUSTOM_WORDS)
        assert ana.text("#waiting-code") == code, ana.text("#waiting-code")
        assert ana.visible("#waiting-start") and not ana.visible("#waiting-for-host"), "the host gets Start"
        assert not ana.visible("#word .tile"), "no game before the host starts"
        assert ana.waiting_players() == ["Ana (you)"], ana.waiting_players()
        size = ana.js("return parseFloat(getComputedStyle(document.querySelector('#waiting-code')).fontSize)")
        assert size >= 40, f"the code is in large type ({size} px)"
        return code
    code = suite.require(checks.run("a new Snowman room opens on the waiting room with its code and the host's Start",
                                    lobby_to_waiting_room))
    # A private room: its link carries the key in the fragment (/r/CODE#k=KEY), and the code alone opens nothing.
    room_path = ana.js("return location.pathname + location.hash")
    assert room_path.startswith(f"/r/{code}#k="), room_path
    link = f"{args.base_url}{room_path}"

    def qr_is_the_link():
        ana.wait(lambda: ana.visible("#waiting-qr svg"), "the QR code")
        assert ana.text("#waiting-link") == link, (ana.text("#waiting-link"), link)
        path = os.path.join(args.artifacts, "party-waiting-qr.png")
        ana.find("#waiting-qr").screenshot(path)
        decoded = decode_qr(path)
        assert decoded == link, f"zbarimg read {decoded!r}, the link is {link!r}"
        print(f"     zbarimg: {decoded}", flush=True)
    checks.run("the waiting room's QR code decodes (zbarimg) to the room's link", qr_is_the_link)

    def players_arrive_live():
        for page in (bob, cleo):
            page.open(room_path)
            page.wait_visible("#waiting-room")
        ana.wait(lambda: len(ana.waiting_players()) == 3, "three players in Ana's waiting room")
        assert ana.waiting_players() == ["Ana (you)", "Bob", "Cleo"], ana.waiting_players()
        for page in (bob, cleo):
            page.wait(lambda p=page: p.text("#waiting-for-host") == "Waiting for Ana to start", "waiting for Ana")
            assert not page.visible("#waiting-start"), f"{page.name} has no Start"
        width = bob.js("return [document.documentElement.scrollWidth, window.innerWidth]")
        assert width[0] <= width[1], f"the phone's waiting room fits its width {width}"
        assert bob.visible("#waiting-qr svg") and bob.text("#waiting-code") == code
        themed_shots(ana, "waiting-room-host")
        themed_shots(bob, "waiting-room")
        bob.js("document.querySelector('#waiting-for-host').scrollIntoView({block: 'center'})")
        themed_shots(bob, "waiting-room-players", top=False)
        themed_shots(cleo, "waiting-room")
    checks.run("Bob (phone) and Cleo arrive live in the waiting room; they wait for Ana, who has Start",
               players_arrive_live)

    def reactions_in_the_waiting_room():
        cleo.click(".reaction-bar button[data-emoji='🎉']")
        bubble = ("return [...document.querySelectorAll('#waiting-players [data-reaction-for] .reaction-bubble')]"
                  ".some((b) => b.textContent === '🎉')")
        ana.wait(lambda: ana.js(bubble), "Cleo's 🎉 over her name in Ana's waiting room", timeout=5)
        shot(ana, "desktop-waiting-room-reaction")
    checks.run("a reaction floats over the sender's name in the waiting room", reactions_in_the_waiting_room)

    # --- Snowman on a phone ------------------------------------------------------------------------------------
    def host_starts():
        ana.click("#waiting-start")
        for page in everyone:
            page.wait(lambda p=page: p.visible("#word .tile") and not p.visible("#waiting-room"), "the game")
        return True
    suite.require(checks.run("the host's Start begins the game for everyone", host_starts))

    state = {"phone_checked": False, "title_back": False}

    def guess(page):
        view = page.snowman()
        letter = solver.letter(view["tiles"], view["guessed"], want_loss=False)
        before = len(view["guessed"])
        if page is bob:
            bob.tap(f"#keyboard .key[data-letter='{letter}']")
        else:
            page.press(letter.lower())
        page.wait(lambda: len(page.snowman()["guessed"]) > before or page.snowman()["status"] != "inProgress",
                  f"{page.name}'s guess {letter}")

    def bob_turn_on_the_phone():
        bob.js("window.scrollTo(0, 0)")
        bob.wait(lambda: bob.driver.title == f"Your turn · Snowman {code}", "the tab title cue")
        time.sleep(0.4)
        viewport = bob.viewport()
        keyboard = bob.rect("#keyboard")
        word = bob.rect("#word")
        figure = bob.rect(".snowman-figure")
        assert viewport["scrollTop"] == 0, viewport
        assert keyboard["top"] >= 0 and keyboard["bottom"] <= viewport["height"], (keyboard, viewport)
        assert word["top"] >= 0 and word["bottom"] <= keyboard["top"], ("the word above the keyboard", word, keyboard)
        assert figure["top"] >= 0 and figure["bottom"] <= keyboard["top"], ("the snowman above the keyboard", figure, keyboard)
        assert bob.js("return document.documentElement.dataset.myTurn") == "true", "the page pulses"
        pulse = "return getComputedStyle(document.querySelector('.stage-card')).animationName"
        assert bob.js(pulse) == "my-turn", bob.js(pulse)
        bob.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
            "features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
        assert bob.js(pulse) == "none", "no pulse with reduced motion"
        themed_shots(bob, "snowman-your-turn", top=False)
        guess(bob)
        assert bob.viewport()["scrollTop"] == 0, "guessing needed no scroll"

    def play_to_the_win():
        for _ in range(60):
            view = ana.snowman()
            if view["status"] != "inProgress":
                break
            turn = next((page for page in everyone if page.snowman()["mine"]), None)
            if turn is None:
                time.sleep(0.1)
                continue
            if turn is bob and not state["phone_checked"]:
                checks.run("on Bob's phone turn: the title says so, the keyboard, the word and the snowman fit "
                           "the screen, and he guesses without scrolling", bob_turn_on_the_phone)
                state["phone_checked"] = True
                bob.wait(lambda: not bob.snowman()["mine"] or bob.snowman()["status"] != "inProgress", "the turn passed")
                if bob.snowman()["status"] == "inProgress" and not bob.snowman()["mine"]:
                    bob.wait(lambda: bob.driver.title == f"Room {code} · WordRooms", "the title restored")
                    state["title_back"] = True
                continue
            guess(turn)
        for page in everyone:
            page.wait(lambda p=page: p.snowman()["status"] == "won", "the win")
        assert state["phone_checked"], "Bob had a turn"
        word = "".join(letter for letter, _ in ana.snowman()["tiles"])
        assert word in CUSTOM_WORDS, f"the secret {word} is one of the host's own words"
    checks.run("the three play Snowman to a win, the secret from the host's own words", play_to_the_win)
    checks.record("after Bob's turn the tab title is the room's again", state["title_back"])

    def happy_snowman_and_podium():
        for page in everyone:
            figure = page.js("""
                const f = document.querySelector('.snowman-figure');
                return {status: f.dataset.status, gone: f.querySelectorAll('.snowman-body .is-gone').length,
                        mood: f.querySelector('.face').dataset.mood, sparkles: f.querySelector('.sparkles').classList.contains('is-shown')};""")
            assert figure == {"status": "won", "gone": 0, "mood": "joyful", "sparkles": True}, (page.name, figure)
        bob.wait(lambda: bob.js("return !document.querySelector('#celebration').hidden"), "the celebration")
        shot(bob, "phone-snowman-won-celebration")
        time.sleep(3)  # the celebration has passed
        themed_shots(bob, "snowman-won")
        themed_shots(ana, "snowman-won")
        for page in (ana, bob):
            page.js("document.querySelector('#leaderboard-card').scrollIntoView({block: 'center'})")
            themed_shots(page, "snowman-podium", top=False)
    checks.run("the won game: the snowman is whole and grins, the page celebrates, the leaderboard has a podium",
               happy_snowman_and_podium)

    def snowman_podium():
        # On the steps: everyone of rank 3 or better with points, ranked by standard competition ranking (issue 43).
        board = ana.js("return [...document.querySelectorAll('#snowman-leaderboard li')].map((li) =>"
                       "[Number(li.querySelector('.rank').textContent), Number(li.querySelector('.score-value').textContent)])")
        podium = ana.js("return [...document.querySelectorAll('#snowman-podium li')].map((li) => [Number(li.dataset.place),"
                        "li.querySelector('.podium-step').getBoundingClientRect().height])")
        assert ana.visible("#snowman-podium") and podium, podium
        totals = [total for _, total in board]
        ranks = [1 + sum(other > total for other in totals) for total in totals]
        assert [place for place, _ in podium] == [rank for rank, total in zip(ranks, totals) if total > 0 and rank <= 3], (podium, board)
        heights = {place: height for place, height in podium}
        assert all(heights[a] > heights[b] for a in heights for b in heights if a < b), f"the first stands highest {podium}"
    checks.run("the leaderboard's podium: places by standard competition ranking, the first highest", snowman_podium)

    def invite_sheet_during_play():
        bob.js("window.scrollTo(0, 0)")
        bob.tap("#share-room")
        bob.wait(lambda: bob.visible("#share-dialog") and bob.visible("#share-qr svg"), "the Invite sheet")
        assert bob.text("#share-code") == code and bob.text("#share-link") == link
        path = os.path.join(args.artifacts, "party-share-qr.png")
        bob.find("#share-qr").screenshot(path)
        assert decode_qr(path) == link, "the sheet's QR is the link too"
        themed_shots(bob, "invite-sheet", top=False)
        bob.press(Keys.ESCAPE)
        bob.wait(lambda: not bob.visible("#share-dialog"), "the sheet closed")
        ana.click("#share-room")
        ana.wait_visible("#share-dialog")
        themed_shots(ana, "invite-sheet", top=False)
        ana.press(Keys.ESCAPE)
    checks.run("the room header's Invite opens the code, the link and the QR during play", invite_sheet_during_play)

    # --- Word Scramble -----------------------------------------------------------------------------------------
    def scramble_waiting_room():
        for page in (ana, bob, cleo):
            page.open("/")
        room = create_room("scramble", {"rounds": Keys.HOME, "roundSeconds": Keys.HOME})
        scramble_path = ana.js("return location.pathname + location.hash")
        for page in (bob, cleo):
            page.open(scramble_path)
            page.wait_visible("#waiting-room")
        ana.wait(lambda: len(ana.waiting_players()) == 3, "three players")
        assert ana.text("#waiting-start") == "Start the match"
        bob.wait(lambda: bob.text("#waiting-for-host") == "Waiting for Ana to start", "Bob waits")
        themed_shots(bob, "scramble-waiting-room")
        ana.click("#waiting-start")
        for page in everyone:
            page.wait(lambda p=page: p.visible("#letter-tiles .letter-tile"), "round 1's tiles")
        return room
    scramble_code = suite.require(checks.run("a Word Scramble room waits for the host too, then starts the match",
                                             scramble_waiting_room))

    def root_letters(page):
        return "".join(page.texts("#letter-tiles .letter-tile"))

    def words_for(root, count):
        letters = collections.Counter(root.lower())
        return [word for word in dictionary if 4 <= len(word) <= 6 and browser_support.spellable(word, letters)][:count]

    def tiles_build_a_word():
        bob.js("window.scrollTo(0, 0)")
        root = root_letters(bob)
        assert len(root) == 8, root
        dock = bob.rect("#play-dock")
        viewport = bob.viewport()
        assert dock["top"] >= 0 and dock["bottom"] <= viewport["height"], ("the tiles on screen", dock, viewport)
        order = root_letters(bob)
        bob.tap("#tiles-shuffle")
        assert sorted(root_letters(bob)) == sorted(order), "Shuffle keeps the letters"
        word = words_for(root, 1)[0]
        for letter in word.upper():
            bob.tap(f"#letter-tiles .letter-tile:not(.is-used)[data-letter='{letter}']")
        assert "".join(bob.texts("#built-word .built-letter")) == word.upper(), bob.texts("#built-word .built-letter")
        assert bob.find("#word-input").get_attribute("value") == word
        bob.tap("#built-word .built-letter:last-child")
        assert "".join(bob.texts("#built-word .built-letter")) == word.upper()[:-1], "a tap takes the letter back"
        bob.tap(f"#letter-tiles .letter-tile:not(.is-used)[data-letter='{word[-1].upper()}']")
        themed_shots(bob, "scramble-tiles", top=False)
        bob.tap("#word-submit")
        bob.wait(lambda: word in bob.texts("#found-list .found-text"), f"{word} found")
        assert bob.texts("#built-word .built-letter") == [], "the built word clears after Submit"
        bob.tap(f"#letter-tiles .letter-tile[data-letter='{root[0]}']")
        bob.tap("#tiles-clear")
        assert bob.texts("#built-word .built-letter") == [], "Clear empties the word"
        assert bob.viewport()["scrollTop"] == 0, "building words needed no scroll"
        themed_shots(ana, "scramble-round")
    checks.run("Bob builds a word from the letter tiles on his phone (Shuffle, tap, take back, Submit, Clear)",
               tiles_build_a_word)

    def ready_between_rounds(number):
        for page in everyone:
            page.wait(lambda p=page: p.visible("#ready-button"), f"the break after round {number}", timeout=ROUND_TIMEOUT)
        bob.tap("#ready-button")
        bob.wait(lambda: bob.texts("#ready-list li") == ["Bob (you)"], "Bob ready")
        ana.wait(lambda: ana.texts("#ready-list li") == ["Bob"], "Ana sees Bob ready")
        assert "Next round in" in (ana.text("#round-timer") or ""), ana.text("#round-timer")
        if number == 1:
            themed_shots(bob, "scramble-ready")
            themed_shots(ana, "scramble-ready")
        ana.click("#ready-button")
        cleo.click("#ready-button")
        for page in everyone:
            page.wait(lambda p=page: p.visible("#letter-tiles .letter-tile"), f"round {number + 1} at once", timeout=8)

    def play_the_match():
        for number in (1, 2, 3):
            root = root_letters(ana)
            for word in words_for(root, 2):
                ana.type_into("#word-input", word, enter=True)
            if number < 3:
                checks.run(f"everyone presses Ready after round {number}: who is ready shows, the next round starts",
                           lambda n=number: ready_between_rounds(n))
        for page in everyone:
            page.wait(lambda p=page: p.visible("#final-scoreboard"), "the end of the match", timeout=ROUND_TIMEOUT)
    checks.run("the match plays its three rounds", play_the_match)

    def final_screen():
        rounds = ana.texts("#rounds-played .round-played-root")
        assert len(rounds) == 3 and all(len(root) == 8 for root in rounds), rounds
        # Standard competition ranking: equal points share a step, and 0 points never stand on one (issue 43).
        podium = ana.js("return [...document.querySelectorAll('#final-scoreboard li')].map((li) => [li.dataset.place,"
                        "Number(li.querySelector('.medal').textContent), parseInt(li.querySelector('.podium-value').textContent, 10)])")
        assert len(podium) == 3, podium
        for place, rank, points in podium:
            assert place == (str(rank) if points > 0 and rank <= 3 else "rest"), podium
        assert not ana.visible("#missed-card"), "the rounds list replaces the last round's card"
        themed_shots(ana, "scramble-final")
        themed_shots(bob, "scramble-final")
        bob.js("document.querySelector('#rounds-played').scrollIntoView({block: 'center'})")
        themed_shots(bob, "scramble-rounds", top=False)
    checks.run("the final screen: a podium and every round's root with its missed words", final_screen)


if __name__ == "__main__":
    browser_support.main(run, __doc__.splitlines()[0], shot_prefix="party-")

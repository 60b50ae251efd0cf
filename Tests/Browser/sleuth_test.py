"""Sleuth in headless Chromium: one round of the hidden five-letter word, seen by its players and a spectator.

Ana hosts on a desktop (1280x800, typing on the physical keyboard), Bob plays on a phone (390x844, tapping the
on-screen keyboard) and Cleo watches on a desktop:
  - Ana creates a Sleuth room, Bob joins by its link, Cleo watches by it, Ana starts the round;
  - each player sees their own letters, and the other's rows as marks only: no letter in the DOM of the other's
    rows, nor anywhere on the spectator's page, until the round is over;
  - the keyboard shows each letter's best known mark with a symbol and says it in its aria-label (never colour
    alone);
  - at 390 px the page does not scroll sideways and the keyboard covers no row of the board;
  - both use their six tries (or solve): the round is over, the secret and every word show to all, and the
    leaderboard lists both players.

Prints PASS/FAIL per check and exits non-zero if any failed. Screenshots (sleuth-*.png), light and dark, go to
--artifacts.

Usage: sleuth_test.py --base-url http://127.0.0.1:PORT --repo REPO_ROOT --artifacts DIR
"""

import re

from selenium.webdriver.common.keys import Keys

import browser_support

# Dictionary words, none of them a secret (Sleuth's secrets are common words), six for each player.
ANA_WORDS = ["fjord", "glyph", "nymph", "waltz", "jumpy", "vexed"]
BOB_WORDS = ["quirk", "zilch", "kudzu", "pygmy", "lymph", "flyby"]
SYMBOLS = {"r": "●", "p": "○", "a": "×"}

# Per row of a board: its tiles' letters, symbols and marks.
BOARD_ROWS = """
return [...document.querySelectorAll(arguments[0] + ' .sleuth-row')].map((row) => [...row.children].map((tile) => ({
  letter: tile.querySelector('.sleuth-letter')?.textContent ?? '', symbol: tile.querySelector('.sleuth-symbol')?.textContent ?? '',
  mark: tile.dataset.mark ?? '' })));"""
# Every letter key: [letter, mark, symbol, aria-label].
KEYS = """
return [...document.querySelectorAll('#sleuth-keyboard .sleuth-key')].filter((key) => key.dataset.key.length === 1)
  .map((key) => [key.dataset.key, key.dataset.mark ?? '', key.querySelector('.sleuth-symbol').textContent, key.getAttribute('aria-label') ?? '']);"""


class Page(browser_support.Page):
    def __init__(self, name, base_url, width, height, **options):
        super().__init__(name, base_url, width, height, **options)
        self.width = width

    def rows(self, css):
        return self.js(BOARD_ROWS, css)

    def played_rows(self, css="#sleuth-board"):
        return [row for row in self.rows(css) if all(tile["mark"] for tile in row)]

    def others_text(self):
        """All the text of the others' boards (names, badges and tiles)."""
        return self.js("return [...document.querySelectorAll('#sleuth-others .sleuth-board-mini')].map((b) => b.textContent).join('|')")

    def other_rows(self):
        return self.rows("#sleuth-others .sleuth-board-mini")

    def my_board_done(self):
        return not self.visible("#sleuth-keyboard")

    def phase(self):
        return self.js("return document.querySelector('.sleuth-game')?.dataset.phase")

    def sideways_scroll(self):
        return self.js("return document.documentElement.scrollWidth") - self.width


def run(suite, args):
    checks = suite.checks
    ana = suite.add(Page("ana", args.base_url, 1280, 800, exact_viewport=True))
    bob = suite.add(Page("bob", args.base_url, 390, 844, phone=True))
    cleo = suite.add(Page("cleo", args.base_url, 1280, 800, exact_viewport=True))

    themed = suite.themed

    def stage_shots(stage, bob_scroll, bob_detail, cleo_shot):
        """One stage on every page: Ana's desktop, Bob's phone at the top and then scrolled by `bob_scroll` to
        `bob_detail`, and Cleo watching."""
        themed(ana, f"{stage}-1280")
        themed(bob, f"{stage}-390")
        bob.js(bob_scroll)
        themed(bob, f"{stage}-390-{bob_detail}", top=False)
        themed(cleo, cleo_shot)

    def prefs(page, name):
        page.open("/")
        page.js("localStorage.setItem('wordrooms.prefs', JSON.stringify({name: arguments[0], theme: 'system', accent: 'blue'}))", name)

    def create_and_join():
        prefs(ana, "Ana")
        ana.open("/")
        code = ana.create_room_from_lobby("sleuth")
        prefs(bob, "Bob")
        bob.open(f"/r/{code}")
        bob.wait_visible("#waiting-room")
        cleo.open(f"/r/{code}")
        cleo.wait_visible("#name-form")
        cleo.type_into("#name-input", "Cleo")
        cleo.click("#watch-button")
        ana.wait(lambda: len(ana.finds("#waiting-players li")) == 2, "two players in the waiting room")
        return code
    suite.require(checks.run("Ana creates a Sleuth room, Bob joins by its link and Cleo watches", create_and_join))

    def start_round():
        ana.start_from_waiting_room()
        if ana.visible("#sleuth-start"):
            ana.click("#sleuth-start")
        for page in (ana, bob, cleo):
            page.wait(lambda p=page: p.phase() == "playing", "the round")
        for page in (ana, bob):
            page.wait_visible("#sleuth-keyboard")
        assert not cleo.visible("#sleuth-keyboard") and not cleo.visible("#sleuth-board"), "a spectator has no board"
        return True
    suite.require(checks.run("Ana starts the round: both players get a board and a keyboard, the spectator neither",
                             start_round))

    def typing_row_clear(page):
        """Whether the row being typed is on screen and not under the keyboard."""
        return page.js("""const row = document.querySelector('#sleuth-board .sleuth-row.is-typing');
            const keys = document.querySelector('#sleuth-keyboard').getBoundingClientRect();
            const r = row.getBoundingClientRect(); return r.top >= 0 && r.bottom <= keys.top + 0.5;""")

    def ana_types(word):
        """On the physical keyboard, anywhere on the page."""
        before = len(ana.played_rows())
        ana.js("document.activeElement?.blur()")
        ana.press(word + Keys.ENTER)
        ana.wait(lambda: len(ana.played_rows()) == before + 1 or ana.my_board_done(), f"Ana's try {word}")

    def bob_taps(word):
        """On the on-screen keyboard."""
        before = len(bob.played_rows())
        # From the top of the page, where the keyboard sticks to the screen's bottom over the lower rows.
        bob.js("window.scrollTo(0, 0)")
        for index, letter in enumerate(word.upper() + "\n"):
            key = "Enter" if letter == "\n" else letter
            bob.find(f"#sleuth-keyboard .sleuth-key[data-key='{key}']").click()
            if index == 0:
                bob.wait(lambda: typing_row_clear(bob), f"the row Bob types {word} into to show above the keyboard", timeout=2)
        bob.wait(lambda: len(bob.played_rows()) == before + 1 or bob.my_board_done(), f"Bob's try {word}")

    def first_tries():
        for word in ANA_WORDS[:2]:
            ana_types(word)
        for word in BOB_WORDS[:2]:
            bob_taps(word)
        for page, words in ((ana, ANA_WORDS), (bob, BOB_WORDS)):
            letters = ["".join(tile["letter"] for tile in row).lower() for row in page.played_rows()]
            assert letters == words[:2], f"{page.name} sees {letters} on their board"
            for row in page.played_rows():
                assert all(tile["symbol"] == SYMBOLS[tile["mark"]] for tile in row), f"{page.name}: {row}"
        return True
    suite.require(checks.run("Ana types two tries on her keyboard, Bob taps two: each sees their own letters",
                             first_tries))

    def others_are_marks_only():
        for page, other in ((ana, BOB_WORDS), (bob, ANA_WORDS), (cleo, ANA_WORDS + BOB_WORDS)):
            page.wait(lambda p=page: sum(1 for row in p.other_rows() if all(t["mark"] for t in row)) >= (4 if p is cleo else 2),
                      "the other's patterns")
            played = [row for row in page.other_rows() if all(tile["mark"] for tile in row)]
            assert all(tile["letter"] == "" and tile["symbol"] == SYMBOLS[tile["mark"]] for row in played for tile in row), \
                f"{page.name} sees letters in another's rows: {played}"
            # Letters are only in the tiles' text, but look at the whole DOM of the others' boards and labels too.
            html = page.js("return document.querySelector('#sleuth-others').outerHTML").lower()
            for word in other[:2]:
                assert word not in html, f"{page.name}'s page holds {word}"
            shown = page.others_text()
            assert not re.search(r"[A-Za-z]", re.sub(r"|".join(("Ana", "Bob", "Cleo")), "", shown)), \
                f"{page.name}: letters in the others' boards: {shown!r}"
        page_text = cleo.js("return document.body.innerText + document.body.innerHTML").lower()
        assert not any(word in page_text for word in ANA_WORDS[:2] + BOB_WORDS[:2]), "the spectator's page holds a word"
    checks.run("the other player's rows are marks only (● ○ ×), and the spectator sees no letter", others_are_marks_only)

    def keyboard_says_marks():
        for page, words in ((ana, ANA_WORDS[:2]), (bob, BOB_WORDS[:2])):
            keys = {letter: (mark, symbol, label) for letter, mark, symbol, label in page.js(KEYS)}
            best = {}
            rank = {"a": 0, "p": 1, "r": 2}
            for row in page.played_rows():
                for tile in row:
                    letter, mark = tile["letter"], tile["mark"]
                    if letter not in best or rank[mark] > rank[best[letter]]:
                        best[letter] = mark
            for letter, mark in best.items():
                key_mark, symbol, label = keys[letter]
                assert key_mark == mark and symbol == SYMBOLS[mark], f"{page.name}: {letter} shows {keys[letter]}, best {mark}"
                name = {"r": "right place", "p": "in the word", "a": "not in the word"}[mark]
                assert label == f"{letter}, {name}", f"{page.name}: {letter}'s label {label!r}"
            untried = [letter for letter in keys if letter not in best]
            assert all(keys[letter][0] == "" and keys[letter][1] == "" for letter in untried), "untried keys carry no mark"
    checks.run("each keyboard shows every tried letter's best mark with its symbol, and says it in its label",
               keyboard_says_marks)

    def phone_fits():
        assert bob.sideways_scroll() <= 0, f"Bob's page scrolls sideways by {bob.sideways_scroll()} px"
        for css in ("#sleuth-keyboard", "#sleuth-board", "#sleuth-timer", ".sleuth-round-card"):
            box = bob.rect(css)
            assert box and box["left"] >= -0.5 and box["right"] <= bob.width + 0.5, f"{css} runs off the screen: {box}"
        # Scrolled so that the board's last row sits just above the sticky keyboard: the keyboard covers none of it.
        bob.js("document.querySelector('#sleuth-board').scrollIntoView({block: 'end'})")
        bob.js("window.scrollBy(0, document.querySelector('#sleuth-keyboard').getBoundingClientRect().height)")
        keyboard = bob.rect("#sleuth-keyboard")
        last = bob.js("const rows = document.querySelectorAll('#sleuth-board .sleuth-row'); const r = rows[rows.length - 1].getBoundingClientRect(); return {top: r.top, bottom: r.bottom};")
        assert last["bottom"] <= keyboard["top"] + 0.5, f"the keyboard {keyboard} covers the board's last row {last}"
        keys = bob.js("return [...document.querySelectorAll('#sleuth-keyboard .sleuth-key')].map((k) => k.getBoundingClientRect().width)")
        assert min(keys) >= 28, f"keys are too narrow to tap: {min(keys)} px"
    checks.run("at 390 px nothing scrolls sideways, keys are tappable, and the keyboard covers no row", phone_fits)

    stage_shots("playing", "window.scrollTo(0, document.body.scrollHeight)", "keyboard", "watching-1280")

    def finish_round():
        for word in ANA_WORDS[2:]:
            if ana.my_board_done():
                break
            ana_types(word)
        for word in BOB_WORDS[2:]:
            if bob.my_board_done() or bob.phase() == "over":
                break
            bob_taps(word)
        for page in (ana, bob, cleo):
            page.wait(lambda p=page: p.phase() == "over", "the round's end")
        return True
    suite.require(checks.run("both players play out their tries: the round is over", finish_round))

    def results_are_public():
        secret = cleo.js("return [...document.querySelectorAll('#sleuth-secret .sleuth-letter')].map((e) => e.textContent).join('')")
        assert re.fullmatch(r"[A-Z]{5}", secret or ""), f"the secret shows: {secret!r}"
        for page in (ana, bob, cleo):
            assert page.visible("#sleuth-secret"), f"{page.name} sees the secret"
            words = {"".join(tile["letter"] for tile in row).lower() for row in page.other_rows()}
            assert {"fjord", "quirk"} <= words, f"{page.name} sees every word once the round is over: {words}"
            page.wait_visible("#sleuth-leaderboard")
            names = [name.replace(" (you)", "") for name in page.texts("#sleuth-leaderboard .score-name")]
            assert sorted(names) == ["Ana", "Bob"], f"{page.name}'s leaderboard: {names}"
        assert ana.visible("#sleuth-start"), "the host may start the next round"
        assert not bob.visible("#sleuth-start") and bob.visible("#sleuth-waiting")
        assert bob.sideways_scroll() <= 0, "Bob's results fit"
    checks.run("after the round the secret, every word and the leaderboard show to all", results_are_public)
    stage_shots("over", "document.querySelector('#sleuth-leaderboard').scrollIntoView({block: 'center'})", "leaderboard",
                "over-watching-1280")


if __name__ == "__main__":
    browser_support.main(run, __doc__.splitlines()[0], shot_prefix="sleuth-")

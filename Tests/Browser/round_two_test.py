"""Game night, round two (issue 43), in headless Chromium: the web client's items of the issue, with screenshots.

christopher.williams (host, desktop 1280x800, his page told by /api/config that the server's network addresses are
2001:db8::5 and 192.168.1.20), سارة (2) (a phone, 360x740) and Bob (a phone, 390x844) meet in a Snowman room:
  - the invite link, Copy link and the QR code carry the LAN address (IPv4 first, same port and path) on the
    host's page opened on 127.0.0.1; on a page whose server offers no other address, a note says friends cannot
    open the link (item 3); the desktop link breaks only between its parts, never inside host:port (item 16);
  - every name is isolated (`<bdi>`): status line, turn pill, members, scores, chat, waiting room (item 6);
  - christopher.williams's turn at 360 px: no sideways scroll, the countdown on screen (item 5);
  - a phone shows no "Enter" on New game; desktop Scramble says "Click letters", a phone "Tap letters" (item 11);
  - the Leave question at 360 px leaves the header and Invite where they were (item 12);
  - the lobby shows the locked room with a badge and a disabled "Locked" button (item 14);
  - Settings on a phone does not focus the name field (no keyboard pops up) (item 15);
  - Word Scramble at 360 px: the word box is wide enough for its placeholder (item 10);
  - the podium with ties: three tied for second share the step, 0 points stay off it (item 13);
  - /admin takes a pasted `#token=` link without a reload (item 9).

Prints PASS/FAIL per check and exits non-zero if any failed. Screenshots (r2-*.png) go to --artifacts.

Usage: round_two_test.py --base-url http://127.0.0.1:PORT --repo REPO_ROOT --artifacts DIR
"""

import json
import os
import re
import time

import browser_support

LONG_NAME = "christopher.williams"
RTL_NAME = "سارة (2)"
LAN_ADDRESSES = ["2001:db8::5", "192.168.1.20"]

# /api/config as a server listening on all interfaces of a machine with these addresses answers it, and a clipboard
# that keeps what was copied: both before the app's own scripts run.
FAKE_NETWORK = """
const realFetch = window.fetch.bind(window);
window.fetch = (url, ...rest) => String(url).endsWith('/api/config')
  ? Promise.resolve(new Response(JSON.stringify({ publicUrl: null, shard: null, networkAddresses: %s }),
      { headers: { 'Content-Type': 'application/json' } }))
  : realFetch(url, ...rest);
""" % json.dumps(LAN_ADDRESSES)
KEEP_CLIPBOARD = """
Object.defineProperty(navigator, 'clipboard', { configurable: true, value: {
  writeText: async (text) => { window.__copied = text; } } });
"""

# The lines a text node of the element covers (distinct tops of its client rects), per text node.
TEXT_NODE_LINES = """
const element = document.querySelector(arguments[0]);
return [...element.childNodes].filter((node) => node.nodeType === Node.TEXT_NODE).map((node) => {
  const range = document.createRange();
  range.selectNodeContents(node);
  return [node.textContent, new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size];
});"""

# Whether each element matching the selector shows `name` inside a <bdi> of exactly that text.
NAME_ISOLATED = """
const [selector, name] = arguments;
const elements = [...document.querySelectorAll(selector)].filter((element) => element.textContent.includes(name));
return { count: elements.length,
         isolated: elements.filter((element) => [...element.querySelectorAll('bdi')].some((bdi) => bdi.textContent === name)).length };
"""


class Page(browser_support.Page):
    def __init__(self, name, base_url, width, height, **options):
        super().__init__(name, base_url, width, height, **options)
        self.width = width

    def sideways_scroll(self):
        """How far the page is wider than the device (a phone's layout viewport grows with content that is too wide,
        so `innerWidth` cannot be the measure)."""
        return self.js("return document.documentElement.scrollWidth") - self.width

    def overflowing_text(self, css):
        """How far the element's text runs past its own box."""
        return self.js("const e = document.querySelector(arguments[0]); return e.scrollWidth - e.clientWidth", css)


def run(suite, args):
    checks = suite.checks
    port = re.search(r":(\d+)$", args.base_url).group(1)

    themed = suite.themed

    chris = suite.add(Page("christopher", args.base_url, 1280, 800, exact_viewport=True,
                           init_script=FAKE_NETWORK + KEEP_CLIPBOARD))
    sara = suite.add(Page("sara", args.base_url, 360, 740, phone=True))
    bob = suite.add(Page("bob", args.base_url, 390, 844, phone=True))

    def prefs(page, name):
        page.open("/")
        page.js("localStorage.setItem('wordrooms.prefs', JSON.stringify({name: arguments[0], theme: 'system', accent: 'blue'}))", name)

    # --- Item 3 and 16: the invite link -----------------------------------------------------------------------
    def create_room():
        prefs(chris, LONG_NAME)
        chris.open("/")
        return chris.create_room_from_lobby("snowman")
    code = suite.require(checks.run("the host creates a Snowman room", create_room))
    lan_link = f"http://192.168.1.20:{port}/r/{code}"

    def lan_invite_link():
        chris.wait(lambda: chris.text("#waiting-link") == lan_link, f"the link {lan_link}",)
        label = chris.find("#waiting-qr svg").get_attribute("aria-label")
        assert label and label.endswith(lan_link), f"the QR code encodes {label!r}"
        assert not chris.visible("#waiting-loopback"), "no loopback note when a network address exists"
        chris.click("#waiting-copy")
        chris.wait(lambda: chris.js("return window.__copied") == lan_link, "Copy link to copy the LAN link")
    checks.run("opened on 127.0.0.1, the invite link, QR and Copy use the LAN address (IPv4 first, same port)",
               lan_invite_link)

    def link_breaks_between_parts():
        lines = chris.js(TEXT_NODE_LINES, "#waiting-link")
        host = [count for text, count in lines if text.startswith("192.168.1.20:")]
        assert host == [1], f"host:port on one line: {lines}"
        assert chris.text("#waiting-link") == lan_link, "the text (what a selection copies) is the whole link"
    checks.run("the desktop link never breaks inside host:port, and its text is the whole link", link_breaks_between_parts)

    def others_join():
        for page, name in ((sara, RTL_NAME), (bob, "Bob")):
            prefs(page, name)
            page.open(f"/r/{code}")
            page.wait_visible("#waiting-room")
        chris.wait(lambda: len(chris.finds("#waiting-players li")) == 3, "three players")
        return True
    suite.require(checks.run("سارة (2) and Bob join on phones", others_join))

    def loopback_note():
        # Sara's page asks the real server, which listens on 127.0.0.1 only: no address friends can open.
        sara.wait_visible("#waiting-loopback")
        assert "can’t open this link" in sara.text("#waiting-loopback"), sara.text("#waiting-loopback")
        assert sara.text("#waiting-link") == f"http://127.0.0.1:{port}/r/{code}", sara.text("#waiting-link")
        sara.js("document.querySelector('#waiting-loopback').scrollIntoView({block: 'center'})")
        themed(sara, "loopback-note-360", top=False)
    checks.run("when only loopback is available, the waiting room says friends can't open the link", loopback_note)

    def waiting_room_names_isolated():
        for page in (chris, sara, bob):
            seen = page.js(NAME_ISOLATED, "#waiting-players .arrival-name", RTL_NAME)
            assert seen == {"count": 1, "isolated": 1}, f"{page.name}: {seen}"
            assert page.sideways_scroll() <= 0, f"{page.name} scrolls sideways by {page.sideways_scroll()} px"
    checks.run("the waiting room isolates the RTL name and fits every screen", waiting_room_names_isolated)
    for page, label in ((chris, "1280"), (sara, "360"), (bob, "390")):
        themed(page, f"waiting-room-{label}")

    # --- Item 5, 6, 11: christopher.williams's turn at 360 px ---------------------------------------------------
    def start_game():
        chris.start_from_waiting_room()
        for page in (sara, bob):
            page.wait_visible("#word .tile")
        sara.wait(lambda: sara.visible("#turn") and sara.visible("#turn-countdown"), "the turn pill and countdown")
        assert LONG_NAME in sara.text("#turn"), sara.text("#turn")
        return True
    suite.require(checks.run("the game starts on christopher.williams's turn", start_game))

    def long_name_fits_360():
        assert sara.sideways_scroll() <= 0, f"the page scrolls sideways by {sara.sideways_scroll()} px"
        width = sara.width
        assert sara.overflowing_text("#status-line") <= 1, "the status line's text runs past its box"
        for css in ("#status-line", "#turn", "#turn-countdown"):
            box = sara.rect(css)
            assert box and box["right"] <= width + 0.5 and box["left"] >= -0.5, f"{css} runs off the screen: {box}"
        countdown = sara.rect("#turn-countdown")
        assert countdown["width"] > 20, f"the countdown is squeezed: {countdown}"
    checks.run("at 360 px christopher.williams's turn fits: status line, turn pill and countdown on screen",
               long_name_fits_360)
    themed(sara, "snowman-long-name-turn-360")
    themed(bob, "snowman-long-name-turn-390")

    def names_isolated_in_game():
        sara.js("const i = document.querySelector('#chat-input'); i.scrollIntoView({block: 'center'});")
        sara.type_into("#chat-input", "hello everyone", enter=True)
        for page in (chris, bob):
            page.wait(lambda p=page: RTL_NAME in (p.text("#snowman-scores") or ""), "the scores")
            for selector in ("#snowman-scores .score-name", "#members-card .member-name"):
                seen = page.js(NAME_ISOLATED, selector, RTL_NAME)
                assert seen["count"] >= 1 and seen["isolated"] == seen["count"], f"{page.name} {selector}: {seen}"
        # Sara's turn comes after christopher's: skip his turn, so the status line and the pill name her.
        chris.click("#skip-turn")
        chris.wait(lambda: RTL_NAME in (chris.text("#status-line") or ""), "the status line to name سارة (2)")
        for selector in ("#status-line", "#turn .turn-text", "#chat-list .chat-name"):
            chris.wait(lambda s=selector: chris.js(NAME_ISOLATED, s, RTL_NAME)["count"] >= 1, f"{selector} to name her")
            seen = chris.js(NAME_ISOLATED, selector, RTL_NAME)
            assert seen["isolated"] == seen["count"], f"{selector}: {seen}"
    checks.run("an RTL name with digits is isolated in the status line, turn pill, members, scores and chat",
               names_isolated_in_game)
    themed(chris, "snowman-rtl-turn-1280", top=True)

    def touch_and_desktop_wording():
        on_phone = bob.js("const k = document.querySelector('#new-game kbd'); return k ? getComputedStyle(k).display : 'none'")
        on_desktop = chris.js("return getComputedStyle(document.querySelector('#new-game kbd')).display")
        assert on_phone == "none", f"a phone shows Enter on New game ({on_phone})"
        assert on_desktop != "none", "the desktop keeps its Enter hint"
        probe = ("const d = document.createElement('div'); d.className = 'built-word'; d.dataset.empty = 'true';"
                 "document.body.append(d); const c = getComputedStyle(d, '::before').content; d.remove(); return c;")
        assert "Click letters" in chris.js(probe), chris.js(probe)
        assert "Tap letters" in sara.js(probe), sara.js(probe)
    checks.run("touch and desktop wording: no Enter on a phone's New game, Scramble says Click on desktop, Tap on touch",
               touch_and_desktop_wording)

    # --- Item 12: the Leave question at 360 px ----------------------------------------------------------------
    def leave_question_keeps_header():
        sara.js("window.scrollTo(0, 0)")
        time.sleep(0.3)
        header, invite = sara.rect(".room-header"), sara.rect("#share-room")
        sara.find("#leave-room").click()
        sara.wait_visible("#leave-confirm-box")
        after_header, after_invite = sara.rect(".room-header"), sara.rect("#share-room")
        assert abs(after_header["height"] - header["height"]) < 1, f"the header reflowed: {header} -> {after_header}"
        assert abs(after_invite["top"] - invite["top"]) < 1 and abs(after_invite["left"] - invite["left"]) < 1, \
            f"Invite moved: {invite} -> {after_invite}"
        for css in ("#leave-confirm-box", "#leave-question", "#leave-confirm", "#leave-cancel"):
            box = sara.rect(css)
            assert box["right"] <= 360.5 and box["left"] >= -0.5, f"{css} runs off the screen: {box}"
        themed(sara, "leave-confirm-360")
        sara.click("#leave-cancel")
        sara.wait(lambda: not sara.visible("#leave-confirm-box"), "the question to close")
    checks.run("at 360 px the Leave question leaves the header and Invite in place", leave_question_keeps_header)

    # --- Item 14: the lobby shows the locked room --------------------------------------------------------------
    def locked_room_in_lobby():
        chris.click("#lock-room")
        chris.wait(lambda: chris.find("#lock-room").get_attribute("aria-checked") == "true", "the room locked")
        bob.click("a.brand")  # to the lobby; the seat is kept
        bob.wait_visible("#rooms-panel")
        row = f"#rooms-panel li.room-row:has(.room-code)"
        bob.wait(lambda: bob.js("return [...document.querySelectorAll(arguments[0])].some((li) =>"
                                "li.querySelector('.room-code').textContent === arguments[1] && li.dataset.locked === 'true')",
                                row, code), "the room listed as locked")
        state = bob.js("const li = [...document.querySelectorAll(arguments[0])].find((e) => e.querySelector('.room-code').textContent === arguments[1]);"
                       "const b = li.querySelector('button'); const badge = li.querySelector('.room-lock');"
                       "return {text: b.textContent, disabled: b.disabled, badge: badge && !badge.hidden ? badge.textContent : null};",
                       row, code)
        assert state == {"text": "Locked", "disabled": True, "badge": "Locked"}, state
        bob.js("document.querySelector('#rooms-panel').scrollIntoView({block: 'center'})")
        themed(bob, "lobby-locked-390", top=False)
        chris.open("/")
        chris.wait_visible("#rooms-panel")
        chris.js("document.querySelector('#rooms-panel').scrollIntoView({block: 'center'})")
        themed(chris, "lobby-locked-1280", top=False)
    checks.run("the lobby shows a locked room with a lock badge and a disabled Locked button", locked_room_in_lobby)

    # --- Item 15: Settings on a phone ------------------------------------------------------------------------
    def settings_on_phone():
        bob.click("#open-settings")
        bob.wait_visible("#settings-dialog")
        focused = bob.js("return document.activeElement?.id || document.activeElement?.tagName")
        assert focused != "settings-name", "the name field has focus: the phone's keyboard pops up"
        themed(bob, "settings-phone-390")
        bob.press("\ue00c")  # Escape
        chris.click("#open-settings")
        chris.wait_visible("#settings-dialog")
        assert chris.js("return document.activeElement?.id") == "settings-name", "the desktop still focuses the name"
        chris.press("\ue00c")
    checks.run("Settings on a phone does not focus the name field; on a desktop it does", settings_on_phone)

    # --- Item 10: Word Scramble at 360 px ----------------------------------------------------------------------
    def scramble_360():
        sara.click("#leave-room")
        sara.click("#leave-confirm")
        sara.wait_visible("#create-room")
        sara.create_room_from_lobby("scramble")
        sara.start_from_waiting_room()
        sara.wait(lambda: sara.visible("#word-input") and len(sara.finds("#letter-tiles button")) == 8, "the tiles")
        box = sara.rect("#word-input")
        placeholder = sara.js("const i = document.querySelector('#word-input'); const c = document.createElement('canvas').getContext('2d');"
                              "const s = getComputedStyle(i, '::placeholder'); c.font = `${s.fontWeight} ${s.fontSize} ${s.fontFamily}`;"
                              "return c.measureText(i.placeholder).width;")
        assert box["width"] >= placeholder + 24, f"the box ({box['width']:.0f} px) is narrower than its placeholder ({placeholder:.0f} px)"
        assert sara.sideways_scroll() <= 0, f"the page scrolls sideways by {sara.sideways_scroll()} px"
        sara.js("document.querySelector('#word-input').scrollIntoView({block: 'end'})")
        themed(sara, "scramble-360", top=False)
    checks.run("Word Scramble at 360 px: the word box is wide enough for its placeholder", scramble_360)

    # --- Item 13: the podium with ties -------------------------------------------------------------------------
    def podium_with_ties():
        draw = """
          const done = arguments[arguments.length - 1];
          import('/js/views/podium.js').then(({ createPodium }) => {
            document.querySelector('#r2-podium')?.remove();
            const podium = createPodium({ id: 'r2-podium-list', label: 'Final standings' });
            const card = document.createElement('section');
            card.className = 'card';
            card.id = 'r2-podium';
            card.append(podium.element);
            document.querySelector('main, #app, body').prepend(card);
            podium.update([
              { key: 'a', name: 'Ana', points: 12, value: '12 points' },
              { key: 'b', name: 'Bob', points: 7, value: '7 points' },
              { key: 'c', name: 'سارة (2)', points: 7, value: '7 points', isYou: true },
              { key: 'd', name: 'christopher.williams', points: 7, value: '7 points' },
              { key: 'e', name: 'Eve', points: 0, value: '0 points' },
            ]);
            window.scrollTo(0, 0);
            // The steps rise (an animation of their height's scale): measure once they stand.
            setTimeout(() => done([...document.querySelectorAll('#r2-podium-list li')].map((li) => [li.querySelector('.podium-name').textContent,
              li.dataset.place, li.querySelector('.medal').textContent, Math.round(li.querySelector('.podium-step').getBoundingClientRect().height)])), 1200);
          });"""
        for page, label in ((chris, "1280"), (bob, "390"), (sara, "360")):
            places = page.driver.execute_async_script(draw)
            assert [p[:3] for p in places] == [["Ana", "1", "1"], ["Bob", "2", "2"], ["سارة (2) (you)", "2", "2"],
                                               ["christopher.williams", "2", "2"], ["Eve", "rest", "5"]], places
            heights = {p[3] for p in places[1:4]}
            assert len(heights) == 1 and heights != {0}, f"the three tied for second share one step height: {places}"
            themed(page, f"podium-ties-{label}")
            page.js("document.querySelector('#r2-podium').remove()")
    checks.run("the podium: three tied for second share the step, 0 points stay off it", podium_with_ties)

    # --- Item 9: /admin takes a pasted link --------------------------------------------------------------------
    def admin_hashchange():
        token = admin_token(args.artifacts)
        chris.open("/admin")
        chris.wait_visible("#token-card")
        chris.js("location.hash = arguments[0]", f"#token={token}")
        chris.wait(lambda: chris.visible("#dashboard") and not chris.visible("#token-card"), "the dashboard")
        assert chris.js("return location.hash") == "", "the token is taken off the address bar"
    checks.run("/admin takes a pasted #token= link without a reload", admin_hashchange)


def admin_token(artifacts):
    token = os.environ.get("WORDROOMS_ADMIN_TOKEN")
    if token:
        return token
    with open(os.path.join(artifacts, "server.log"), encoding="utf-8") as handle:
        for line in handle:
            match = re.match(r"^Admin: \S+#token=([A-Za-z0-9._~-]+)$", line.strip())
            if match:
                return match.group(1)
    raise AssertionError("no 'Admin: ...#token=' line in server.log and no $WORDROOMS_ADMIN_TOKEN")


if __name__ == "__main__":
    browser_support.main(run, __doc__.splitlines()[0], shot_prefix="r2-")

"""What every Chromium suite of the web client shares: PASS/FAIL bookkeeping, one browser session with helpers to
read and drive the app's DOM, and the run of a suite (`main`: its pages, screenshots, console check and summary).
Each suite subclasses `Page` for what only it needs."""

import argparse
import collections
import json
import os
import sys
import threading
import time
import traceback

import websocket

from selenium import webdriver
from selenium.common.exceptions import TimeoutException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
WAIT_SECONDS = 10


class Checks:
    """Collects PASS/FAIL lines."""

    def __init__(self):
        self.failed = []
        self.passed = 0

    def record(self, name, ok, detail=""):
        if ok:
            self.passed += 1
            print(f"PASS {name}", flush=True)
        else:
            self.failed.append(name)
            print(f"FAIL {name}{': ' + detail if detail else ''}", flush=True)
        return ok

    def run(self, name, function):
        """Runs a check that raises on failure; returns its result or None."""
        try:
            result = function()
            self.record(name, True)
            return result
        except Exception as error:  # noqa: BLE001 - any failure of the step fails the check
            detail = f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}"
            self.record(name, False, detail)
            traceback.print_exc(limit=3, file=sys.stdout)
            return None


class Page:
    """One browser session (a profile of its own: storage, browser id) and helpers to read the app's DOM.

    `phone` emulates a touch device of `width` x `height` (headless windows are at least 500 px wide, so a phone's
    viewport needs device emulation; touch makes `(pointer: coarse)` match as on a real phone). `exact_viewport`
    sets a desktop viewport to exactly that size. `init_script` runs before the app's scripts on every page load.
    `network_log` keeps Chromium's own WebSocket network events (DevTools `Network.webSocket*`), for
    `websocket_events`. `net_log` is a file for Chromium's NetLog, for `websocket_frame_headers`.
    """

    def __init__(self, name, base_url, width=1280, height=800, phone=False, exact_viewport=False, init_script=None,
                 network_log=False, net_log=None):
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                         f"--window-size={max(width, 500)},{height}", "--force-device-scale-factor=1", "--lang=en-US"):
            options.add_argument(argument)
        if net_log:
            # The NetLog records each WebSocket frame header Chromium sends or receives, reserved bits included;
            # the default capture mode leaves payloads and cookies out.
            options.add_argument(f"--log-net-log={net_log}")
            options.add_argument("--net-log-capture-mode=Default")
        self.net_log = net_log
        if phone:
            options.add_experimental_option("mobileEmulation", {
                "deviceMetrics": {"width": width, "height": height, "pixelRatio": 1, "touch": True}})
        logs = {"browser": "ALL"}
        if network_log:
            # ChromeDriver's performance log carries the DevTools Network events as Chromium emits them.
            logs["performance"] = "ALL"
            options.add_experimental_option("perfLoggingPrefs", {"enableNetwork": True, "enablePage": False})
        options.set_capability("goog:loggingPrefs", logs)
        self.network_log = network_log
        self._websocket_events = []
        self.name = name
        self.base_url = base_url
        self.phone = phone
        self.driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
        self.driver.set_page_load_timeout(20)
        self.driver.set_script_timeout(10)
        if exact_viewport and not phone:
            self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                "width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
        if init_script:
            self.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": init_script})

    def quit(self):
        try:
            self.driver.quit()
        except WebDriverException:
            pass

    def open(self, path):
        self.driver.get(self.base_url + path)

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def find(self, css):
        return self.driver.find_element(By.CSS_SELECTOR, css)

    def finds(self, css):
        return self.driver.find_elements(By.CSS_SELECTOR, css)

    def text(self, css):
        return self.js("const e = document.querySelector(arguments[0]); return e ? e.textContent.trim() : null;", css)

    def texts(self, css):
        return self.js("return [...document.querySelectorAll(arguments[0])].map((e) => e.textContent.trim())", css)

    def visible(self, css):
        return bool(self.js(
            "const e = document.querySelector(arguments[0]);"
            "if (!e) return false; const r = e.getBoundingClientRect(); const s = getComputedStyle(e);"
            "return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none';", css))

    def wait(self, condition, message, timeout=WAIT_SECONDS):
        try:
            return WebDriverWait(self.driver, timeout, poll_frequency=0.1).until(lambda _: condition())
        except TimeoutException:
            raise AssertionError(f"{self.name}: timed out waiting for {message}") from None

    def wait_visible(self, css, timeout=WAIT_SECONDS):
        return self.wait(lambda: self.visible(css), f"{css} to be visible", timeout)

    def click(self, css):
        self.wait_visible(css)
        element = self.find(css)
        self.js("arguments[0].scrollIntoView({block: 'center'})", element)
        element.click()

    def type_into(self, css, text, enter=False):
        element = self.find(css)
        element.clear()
        element.send_keys(text + (Keys.ENTER if enter else ""))

    def press(self, keys):
        """Types on the page itself (whatever has focus), as a player typing anywhere."""
        ActionChains(self.driver).send_keys(keys).perform()

    def websocket_events(self):
        """Chromium's DevTools events about WebSockets (`Network.webSocketCreated`, `...HandshakeResponseReceived`
        with the 101's headers as the browser received them, `...FrameReceived`, `...FrameError`, ...) since the
        session started, oldest first, each as {"method", "params"}. Needs `network_log`."""
        assert self.network_log, "the page was opened without network_log"
        # Reading the performance log empties it: keep what was read.
        for entry in self.driver.get_log("performance"):
            message = json.loads(entry["message"])["message"]
            if message.get("method", "").startswith("Network.webSocket"):
                self._websocket_events.append(message)
        return list(self._websocket_events)

    def websocket_frame_headers(self):
        """The WebSocket frame headers in Chromium's NetLog, oldest first: [(socket source id, "sent" or
        "received", {"opcode", "final", "reserved1", "reserved2", "reserved3", "masked", "payload_length"})].

        Read while the browser runs: Chromium writes the log in batches, one event per line after a line of
        constants and `"events": [`, so the newest events may not be there yet and the last line may be cut."""
        assert self.net_log, "the page was opened without net_log"
        with open(self.net_log, encoding="utf-8") as handle:
            lines = handle.readlines()
        constants = json.loads(lines[0].rstrip().rstrip(",") + "}")["constants"]
        kinds = {constants["logEventTypes"][name]: direction for name, direction in
                 (("WEBSOCKET_SENT_FRAME_HEADER", "sent"), ("WEBSOCKET_RECV_FRAME_HEADER", "received"))}
        headers = []
        for line in lines[2:]:
            try:
                event = json.loads(line.rstrip().rstrip(","))
            except ValueError:
                continue   # cut off, or the closing line
            if event.get("type") in kinds:
                headers.append((event["source"]["id"], kinds[event["type"]], event["params"]))
        return headers

    #: Console errors a suite expects (failed socket opens while the network is off on purpose), not the app's.
    expected_console = ("ERR_INTERNET_DISCONNECTED",)

    def console_errors(self):
        try:
            return [entry["message"] for entry in self.driver.get_log("browser") if entry["level"] == "SEVERE"
                    and not any(expected in entry["message"] for expected in self.expected_console)]
        except WebDriverException:
            return []

    def theme(self, theme):
        """Light or dark through the system preference (the pages' appearance setting is "system")."""
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
            "features": [{"name": "prefers-color-scheme", "value": theme}]})
        time.sleep(0.3)

    def rect(self, css):
        """The bounding box of the first element `css` matches, or None."""
        return self.js("const e = document.querySelector(arguments[0]); if (!e) return null;"
                       "const r = e.getBoundingClientRect(); return {left: r.left, right: r.right, top: r.top,"
                       "bottom: r.bottom, width: r.width, height: r.height};", css)

    def gallery(self, artifacts, name, sizes, settle=0.35):
        """Screenshots of the current screen at each of `sizes` ((label, width, height, mobile)), light and dark,
        as `{name}-{label}-{shade}.png`; the page's own theme and viewport come back afterwards."""
        paths = []
        theme = self.js("return document.documentElement.dataset.theme")
        try:
            for label, width, height, mobile in sizes:
                self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                    "width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
                for shade in ("light", "dark"):
                    self.js("document.documentElement.dataset.theme = arguments[0]; window.scrollTo(0, 0)", shade)
                    time.sleep(settle)
                    path = os.path.join(artifacts, f"{name}-{label}-{shade}.png")
                    self.driver.save_screenshot(path)
                    paths.append(path)
        finally:
            self.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
            self.js("document.documentElement.dataset.theme = arguments[0]", theme or "system")
        print(f"     screenshots {', '.join(os.path.basename(path) for path in paths)}", flush=True)
        return paths

    def screenshot(self, artifacts, name, top=True):
        if top:
            self.js("window.scrollTo(0, 0)")
            time.sleep(0.35)  # let transitions settle
        path = os.path.join(artifacts, f"{name}.png")
        self.driver.save_screenshot(path)
        return path

    def snowman(self):
        """What a Snowman page shows: `tiles` ([letter, missed]), the game's `status` ("inProgress", "won", "lost"),
        the room's shared status `line` (its text says "Your turn" to the player whose turn it is), `guessed` ("A+" a
        hit, "B-" a miss), `scores` ([name, points] as listed, without " (you)"), the figure's `stage`, the texts of
        the `history` buttons, and whether the turn is this page's (`mine`)."""
        return self.js("""
            const q = (s) => document.querySelector(s);
            const all = (s) => [...document.querySelectorAll(s)];
            return {
              tiles: all('#word .tile').map((t) => [t.textContent, t.classList.contains('is-missed')]),
              status: q('#status-line')?.dataset.status,
              line: q('#status-line')?.dataset.line,
              guessed: all('#guessed-letters li').map((li) => li.textContent + (li.classList.contains('is-hit') ? '+' : '-')),
              scores: all('#snowman-scores li').map((li) => [
                li.querySelector('.score-name').textContent.replace(' (you)', ''),
                Number(li.querySelector('.score-value').textContent)]),
              stage: q('.snowman-figure')?.dataset.stage,
              history: all('#history-list button').map((b) => b.textContent),
              mine: q('#turn')?.dataset.mine === 'true' && !q('#turn').hidden,
            };""")

    def open_create_dialog(self, game, name=None):
        """From the lobby, opens the create dialog and picks `game` (its id), typing `name` first if given."""
        self.click("#create-room")
        self.wait_visible("#create-dialog")
        if name is not None:
            self.type_into("#create-name", name)
        self.find(f"label.choice:has(input[value='{game}'])").click()

    def create_room_from_lobby(self, game):
        """From the lobby, creates a room of `game` (its id) in the create dialog; returns the new room's code once
        its waiting room shows."""
        self.open_create_dialog(game)
        self.find("#create-submit").click()
        self.wait(lambda: self.room_code() and self.visible("#waiting-start"), f"the {game} waiting room")
        return self.room_code()

    def submit_create_dialog(self, ready="#word .tile"):
        """Submits the create dialog; returns the new room's code once `ready` shows. A new room opens on its
        waiting room; for a Snowman board (the default `ready`) the host presses Start there first."""
        self.find("#create-submit").click()
        self.wait(lambda: self.room_code() is not None and (self.visible(ready) or self.visible("#waiting-start")),
                  f"the new room's URL and {ready} or the waiting room")
        if not self.visible(ready) and ready == "#word .tile":
            self.start_from_waiting_room()
        self.wait(lambda: self.visible(ready), ready)
        return self.room_code()

    def start_from_waiting_room(self):
        """The host's Start in the waiting room; returns once the game shows."""
        self.wait(lambda: self.visible("#waiting-start") and self.find("#waiting-start").is_enabled(), "Start")
        self.find("#waiting-start").click()
        self.wait(lambda: not self.visible("#waiting-room"), "the game to start")

    def room_code(self):
        path = self.js("return location.pathname")
        return path.rsplit("/", 1)[-1] if path.startswith("/r/") else None

    def offline(self, flag):
        self.driver.execute_cdp_cmd("Network.enable", {})
        self.driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
            "offline": flag, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})


class RawClient:
    """A game client on a plain WebSocket (websocket-client), for filling, locking or watching a room quickly."""

    def __init__(self, base_url):
        self.socket = websocket.create_connection(base_url.replace("http", "ws", 1) + "/ws", timeout=5)
        self.messages = []
        self.closed = False

    def send(self, message):
        self.socket.send(json.dumps(message))

    def until(self, predicate, timeout=8):
        """Reads until a message matches and returns it; a close frame reads as {"type": "close", "code", "reason"}."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            opcode, data = self.socket.recv_data()
            if opcode == websocket.ABNF.OPCODE_CLOSE:
                code = int.from_bytes(data[:2], "big") if len(data) >= 2 else None
                message = {"type": "close", "code": code, "reason": data[2:].decode("utf-8", "replace")}
            else:
                message = json.loads(data)
            self.messages.append(message)
            if predicate(message):
                return message
            if message["type"] == "close":
                break
        raise AssertionError(f"no matching message in {self.messages[-5:]}")

    def drain_in_background(self):
        def loop():
            while not self.closed:
                try:
                    self.socket.recv()
                except Exception:  # noqa: BLE001 - timeouts and the final close both end up here
                    if self.closed:
                        return
        threading.Thread(target=loop, daemon=True).start()

    def close(self):
        self.closed = True
        try:
            self.socket.close()
        except Exception:  # noqa: BLE001
            pass


def spellable(word, letters):
    """Whether `word` can be spelled from `letters` (a Counter), each letter used at most as often as it stands."""
    need = collections.Counter(word)
    return all(letters[letter] >= count for letter, count in need.items())


class Suite:
    """One suite's run: its checks, the pages it opened (each checked for console errors and closed at the end) and
    its screenshots, named `shot_prefix` + name in the artifacts folder (older ones of that prefix are removed)."""

    class Stop(Exception):
        """Ends the suite early: a check that the rest depends on failed."""

    def __init__(self, artifacts, shot_prefix=""):
        self.checks = Checks()
        self.artifacts = artifacts
        self.shot_prefix = shot_prefix
        self.pages = []
        self.started = time.monotonic()
        os.makedirs(artifacts, exist_ok=True)
        for stale in os.listdir(artifacts):
            if stale.startswith(shot_prefix) and stale.endswith(".png"):
                os.remove(os.path.join(artifacts, stale))

    def add(self, page):
        """Keeps a page for the console check and the clean-up; returns it."""
        self.pages.append(page)
        return page

    def shot(self, page, name, top=True):
        path = page.screenshot(self.artifacts, self.shot_prefix + name, top)
        print(f"     screenshot {path}", flush=True)

    def themed(self, page, name, top=True, back_to="light"):
        """The same screen in the light and the dark theme (`name`-light, `name`-dark), then back to `back_to`."""
        for theme in ("light", "dark"):
            page.theme(theme)
            self.shot(page, f"{name}-{theme}", top)
        page.theme(back_to)

    def require(self, result):
        """Returns a check's result, or stops the suite when the check failed (None) or gave nothing."""
        if not result:
            raise Suite.Stop()
        return result

    def check_consoles(self):
        for page in self.pages:
            errors = page.console_errors()
            self.checks.record(f"no console errors on {page.name}'s page", not errors, "; ".join(errors)[:500])

    def quit(self):
        for page in self.pages:
            page.quit()

    def report(self):
        """Prints the summary; returns the exit status (1 when any check failed)."""
        elapsed = time.monotonic() - self.started
        print(f"\n{self.checks.passed} passed, {len(self.checks.failed)} failed ({elapsed:.0f} s)")
        for name in self.checks.failed:
            print(f"  failed: {name}")
        return 1 if self.checks.failed else 0


def main(run, description, shot_prefix=""):
    """Parses the arguments every suite takes (see run-browser-tests.sh), calls `run(suite, args)`, checks every page
    it added for console errors (unless it stopped early), closes them and exits with the summary's status."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--repo", required=True)
    parser.add_argument("--artifacts", required=True)
    args = parser.parse_args()
    suite = Suite(args.artifacts, shot_prefix)
    try:
        run(suite, args)
        suite.check_consoles()
    except Suite.Stop:
        pass
    finally:
        suite.quit()
    sys.exit(suite.report())

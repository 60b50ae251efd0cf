"""The pages under the server's Content-Security-Policy (issue 42), in headless Chromium.

The lobby, a new room (its waiting room with the QR code, then the Snowman game after Start), the 404 page (its
code field, now a script file instead of an inline one) and the operator dashboard opened with its token: each is
served with the policy (`default-src 'self'; ... frame-ancestors 'none'`) and `Referrer-Policy: no-referrer`, works,
and logs no CSP violation (Chromium reports each as a console error naming the "Content Security Policy").

Usage: csp_test.py --base-url http://127.0.0.1:PORT --repo REPO_ROOT --artifacts DIR
"""

import os
import re
import urllib.request

import browser_support


def violations(page):
    """Console lines of `page` that report a CSP violation (read once: the log empties as it is read)."""
    return [entry["message"] for entry in page.driver.get_log("browser")
            if "Content Security Policy" in entry["message"] or "Content-Security-Policy" in entry["message"]]


def admin_token(artifacts):
    log = os.path.join(artifacts, "server.log")
    with open(log, encoding="utf-8") as handle:
        for line in handle:
            match = re.match(r"^Admin: \S+#token=([A-Za-z0-9._~-]+)$", line.strip())
            if match:
                return match.group(1)
    return os.environ.get("WORDROOMS_ADMIN_TOKEN")


def run(suite, args):
    checks = suite.checks
    page = suite.add(browser_support.Page("csp", args.base_url))

    def headers_are_sent():
        for path in ("/", "/r/ABCD", "/admin", "/nowhere"):
            request = urllib.request.Request(args.base_url + path, headers={"Accept": "text/html"})
            try:
                response = urllib.request.urlopen(request, timeout=5)
            except urllib.error.HTTPError as error:  # the 404 page
                response = error
            policy = response.headers.get("Content-Security-Policy", "")
            assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy, f"{path}: {policy!r}"
            assert response.headers.get("Referrer-Policy") == "no-referrer", path
    checks.run("every page carries the Content-Security-Policy and Referrer-Policy", headers_are_sent)

    def lobby():
        page.open("/")
        page.js("localStorage.setItem('wordrooms.prefs', JSON.stringify({name: 'Ana', theme: 'system', accent: 'blue'}))")
        page.open("/")
        page.wait(lambda: page.visible(".empty-state") or page.visible(".room-list"), "the lobby")
        found = violations(page)
        assert not found, found
        return True
    suite.require(checks.run("the lobby loads with no CSP violation", lobby))

    def room():
        page.click("#create-room")
        page.wait_visible("#create-dialog")
        page.find("#create-submit").click()
        page.wait(lambda: page.room_code() is not None and page.visible("#waiting-room"), "the waiting room")
        page.wait(lambda: page.visible("#waiting-qr svg"), "the QR code")
        page.start_from_waiting_room()
        page.wait_visible("#word .tile")
        suite.shot(page, "room")
        found = violations(page)
        assert not found, found
    checks.run("a room (waiting room with its QR code, then the game) runs with no CSP violation", room)

    def not_found():
        page.open("/no-such-page")
        page.wait_visible("#other-code")
        page.find("#other-code").send_keys("ab")
        page.find("#other-code").submit()
        page.wait(lambda: page.text("#other-code-error"), "the code field's own check (its script ran)")
        found = violations(page)
        assert not found, found
    checks.run("the 404 page's code field works with no CSP violation", not_found)

    def admin():
        token = admin_token(args.artifacts)
        assert token, "no admin token in server.log or $WORDROOMS_ADMIN_TOKEN"
        page.open(f"/admin#token={token}")
        page.wait(lambda: page.js("return location.hash") == "" and page.js(
            "return document.querySelectorAll('main *').length") > 20, "the dashboard")
        suite.shot(page, "admin")
        found = violations(page)
        assert not found, found
    checks.run("the dashboard opened with its token runs with no CSP violation", admin)


if __name__ == "__main__":
    browser_support.main(run, __doc__.splitlines()[0], shot_prefix="csp-")

"""Opens a `wordrooms-bots --html` report in headless Chromium and screenshots it, light and dark, at a laptop's
1280x800 and a phone's 390x844: the visible part and the whole page. Checks what a reader would notice: every
chart drawn or saying why not, nothing wider than the phone's screen, no text escaping the SVGs.

Usage: python3 Tests/Bench/report_screenshot.py REPORT.html [OUT_DIR]
Needs selenium (Tests/Browser/requirements.txt; Tests/Browser/run-browser-tests.sh prepares a venv with it) and
Debian's chromium and chromium-driver. Exit status 0 when every check passed, 1 otherwise, 2 when it cannot run.
"""

import os
import pathlib
import sys

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
except ImportError:
    print("report_screenshot: selenium is missing (see Tests/Browser/requirements.txt)")
    sys.exit(2)

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
THEMES = ("light", "dark")

# Reads the page back: the charts, the widest thing on it, SVG text that spills out of its SVG.
PAGE_CHECK = """
const charts = [...document.querySelectorAll('section.chart')].map(section => {
  const svg = [...section.querySelectorAll('svg.plot')].find(s => s.getBoundingClientRect().width > 0);
  return {id: section.id, drawn: !!svg, empty: !!section.querySelector('.empty'),
          paths: svg ? svg.querySelectorAll('path.line, circle.dot').length : 0};
});
const spills = [];
for (const svg of document.querySelectorAll('svg.plot')) {
  const box = svg.getBoundingClientRect();
  if (box.width === 0) continue;
  for (const text of svg.querySelectorAll('text')) {
    const r = text.getBoundingClientRect();
    if (r.left < box.left - 2 || r.right > box.right + 2) spills.push(svg.closest('section').id + ': ' + text.textContent);
  }
}
return {charts, spills, scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth,
        height: document.documentElement.scrollHeight};
"""


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    report = pathlib.Path(sys.argv[1]).resolve()
    out = pathlib.Path(sys.argv[2] if len(sys.argv) > 2 else report.parent)
    out.mkdir(parents=True, exist_ok=True)
    if not report.is_file():
        print(f"report_screenshot: no such file: {report}")
        return 2
    if not (os.access(CHROMIUM, os.X_OK) and os.access(CHROMEDRIVER, os.X_OK)):
        print("report_screenshot: chromium and chromium-driver are missing (apt-get install chromium chromium-driver)")
        return 2
    problems = []
    for size_name, (width, height) in SIZES.items():
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                         f"--window-size={max(width, 500)},{height}", "--force-device-scale-factor=1"):
            options.add_argument(argument)
        driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
        try:
            metrics = {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": size_name == "phone"}
            driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
            driver.get(report.as_uri())
            for theme in THEMES:
                driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
                    "features": [{"name": "prefers-color-scheme", "value": theme}]})
                driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
                page = driver.execute_script(PAGE_CHECK)
                name = f"report-{size_name}-{theme}"
                driver.save_screenshot(str(out / f"{name}.png"))
                # The whole page: a viewport as tall as the document.
                driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", dict(metrics, height=page["height"]))
                driver.save_screenshot(str(out / f"{name}-full.png"))
                drawn = sum(1 for chart in page["charts"] if chart["drawn"])
                empty = sum(1 for chart in page["charts"] if chart["empty"])
                print(f"{name}: {len(page['charts'])} charts ({drawn} drawn, {empty} without data), "
                      f"page {page['scrollWidth']}x{page['height']} px")
                if not page["charts"]:
                    problems.append(f"{name}: no charts")
                for chart in page["charts"]:
                    if not chart["drawn"] and not chart["empty"]:
                        problems.append(f"{name}: chart {chart['id']} neither drawn nor saying why")
                    if chart["drawn"] and chart["paths"] == 0:
                        problems.append(f"{name}: chart {chart['id']} has axes and no lines")
                if page["scrollWidth"] > page["innerWidth"]:
                    problems.append(f"{name}: the page is {page['scrollWidth']} px wide in a {page['innerWidth']} px window")
                problems.extend(f"{name}: text outside its chart: {spill}" for spill in page["spills"])
        finally:
            driver.quit()
    print(f"screenshots in {out}")
    for problem in problems:
        print("FAIL", problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

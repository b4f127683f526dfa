"""vocab-bench's browser figures for the web app: in a real headless Chromium at a phone's size
(390x844), the first load of the study page (empty cache, no service worker yet): the bytes on
the wire (the page, its scripts and styles, the catalogue and the API answers, headers included,
as Chromium counts them) and the time from navigation to a card shown (the page marks it).
Usage: bench_web.py URL CODE RUNS. Prints "bytes N" and "card-ms M" (one line per run)."""
import shutil
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

url, code, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
options = webdriver.ChromeOptions()
options.binary_location = shutil.which("chromium")
for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
    options.add_argument(flag)
options.add_experimental_option("mobileEmulation", {"deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 2}})
driver = webdriver.Chrome(service=Service(executable_path=shutil.which("chromedriver")), options=options)
try:
    driver.get(url + "#pair=" + code)  # pairs this browser (its cookie stays)
    for _ in range(100):
        if driver.execute_script("return !document.getElementById('books').hidden"):
            break
        time.sleep(0.1)
    for _ in range(runs):
        # A first load: nothing cached, no service worker between the page and the server.
        driver.get(url + "manifest.webmanifest")
        driver.execute_async_script("""const done = arguments[0];
            Promise.all([navigator.serviceWorker.getRegistrations().then((all) => Promise.all(all.map((r) => r.unregister()))),
                         caches.keys().then((names) => Promise.all(names.map((name) => caches.delete(name))))]).then(() => done());""")
        driver.execute_cdp_cmd("Network.enable", {})
        driver.execute_cdp_cmd("Network.clearBrowserCache", {})
        driver.get(url + "#study")
        shown = None
        for _ in range(200):
            shown = driver.execute_script("const m = performance.getEntriesByName('vocab-card-shown'); return m.length ? m[0].startTime : null")
            if shown is not None:
                break
            time.sleep(0.05)
        if shown is None:
            print("no card was shown", file=sys.stderr)
            sys.exit(1)
        wire = driver.execute_script("""return performance.getEntriesByType('navigation').concat(performance.getEntriesByType('resource'))
            .filter((e) => e.startTime <= arguments[0]).reduce((sum, e) => sum + (e.transferSize || 0), 0)""", shown)
        print(f"bytes {wire}")
        print(f"card-ms {shown:.0f}")
finally:
    driver.quit()

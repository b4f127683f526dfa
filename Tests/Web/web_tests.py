"""The web app in a real headless Chromium at a phone's size (390x844), against the real
`vocab serve` (VOCAB_TEST_BINARY): a learner pairs, makes a book, adds words, sees a word the
terminal added, and studies. Screenshots go to docs/screenshots/web-*.png when asked
(WEB_SCREENSHOTS=folder). Run by scripts/test.sh with the Python that has Selenium."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import traceback

from selenium import webdriver
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as ready
from selenium.webdriver.support.ui import Select, WebDriverWait

BINARY = os.environ.get("VOCAB_TEST_BINARY") or os.path.join(os.path.dirname(__file__), "../../.build/debug/vocab")
SHOTS = os.environ.get("WEB_SCREENSHOTS")


class Server:
    """`vocab serve` on a free loopback port, in a data folder of its own."""

    def __init__(self):
        self.home = tempfile.mkdtemp(prefix="vocab-web-")
        self.env = dict(os.environ, VOCAB_HOME=self.home + "/data", XDG_CONFIG_HOME=self.home + "/config", NO_COLOR="1")
        self.codes, self.port = [], None
        self.start(0)

    def start(self, port):
        """Starts `vocab serve` (again: on the same port and data folder)."""
        self.port = None
        self.process = subprocess.Popen([BINARY, "serve", "--listen", f"127.0.0.1:{port}"], env=self.env,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        while self.port is None:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError("vocab serve did not start")
            self.read(line)

    def read(self, line):
        if line.startswith("Pairing code: "):
            self.codes.append(re.sub(r"\D", "", line))
        found = re.search(r"127\.0\.0\.1:(\d+)", line)
        if found:
            self.port = int(found.group(1))

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}/"

    def vocab(self, *arguments):
        return subprocess.run([BINARY, *arguments], env=self.env, check=True, capture_output=True, text=True).stdout

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
        shutil.rmtree(self.home, ignore_errors=True)


def browser(language="en"):
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium")
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", f"--lang={language}"):
        options.add_argument(flag)
    options.add_experimental_option("mobileEmulation", {"deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 2}})
    options.add_experimental_option("prefs", {"intl.accept_languages": language})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})  # what the console says
    return webdriver.Chrome(service=Service(executable_path=shutil.which("chromedriver")), options=options)


def wait(driver, condition, timeout=10):
    return WebDriverWait(driver, timeout).until(condition)


def visible(driver, element_id):
    return wait(driver, ready.visibility_of_element_located((By.ID, element_id)))


def text_in(driver, element_id, text, timeout=10):
    wait(driver, ready.text_to_be_present_in_element((By.ID, element_id), text), timeout)


def tap_when_still(driver, element_id):
    """Taps the element once it stops moving: a tap during the page's smooth scroll lands elsewhere."""
    element = visible(driver, element_id)
    last = None
    def still(_):
        nonlocal last
        where, last = last, element.rect
        return where == last
    wait(driver, still)
    element.click()


def shoot(driver, name):
    if SHOTS:
        time.sleep(0.3)
        driver.save_screenshot(os.path.join(SHOTS, f"web-{name}.png"))


def tap(driver, xpath):
    """Taps what `xpath` finds, once it is there (a list drawn again under the finger is found again)."""
    def tapped(d):
        try:
            d.find_element(By.XPATH, xpath).click()
            return True
        except (NoSuchElementException, StaleElementReferenceException):
            return False  # not there yet, or drawn again between finding and tapping
    wait(driver, tapped)


def open_book(driver, name):
    """Taps the book on the shelf (once the shelf shows it)."""
    tap(driver, f"//ul[@id='shelf']//button[contains(., '{name}')]")


def add_word(driver, word, definition):
    """New word, typed by hand, then Done; waits until the list shows it."""
    visible(driver, "word-new").click()
    visible(driver, "word-word").send_keys(word)
    driver.find_element(By.ID, "word-definition").send_keys(definition)
    done = driver.find_element(By.ID, "done")
    # Scrolled to the middle first, as a thumb does: offline, a note covers the screen's foot.
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", done)
    done.click()
    text_in(driver, "word-list", word)


def test_pair_make_a_book_add_words_and_study(server, driver):
    driver.get(server.url)
    visible(driver, "pair-code").send_keys(server.codes[-1])
    shoot(driver, "pair")
    driver.find_element(By.CSS_SELECTOR, "#pair-form button").click()
    visible(driver, "book-name").send_keys("TOEIC")
    driver.find_element(By.CSS_SELECTOR, "#book-form button").click()
    open_book(driver, "TOEIC")
    add_word(driver, "abandon", "to leave behind")
    # Dictionary fills the meaning learners meet most; another is one tap away; Done saves it.
    visible(driver, "word-word").send_keys("keen")
    driver.find_element(By.ID, "dictionary").click()
    wait(driver, lambda d: d.find_element(By.ID, "word-definition").get_attribute("value").startswith("(adj.) having or demonstrating"))
    visible(driver, "senses")
    shoot(driver, "dictionary")
    driver.find_element(By.XPATH, "//div[@id='senses']/button[starts-with(., '2.')]").click()
    wait(driver, lambda d: not d.find_element(By.ID, "word-definition").get_attribute("value").startswith("(adj.) having or demonstrating"))
    picked = driver.find_element(By.ID, "word-definition").get_attribute("value")
    driver.find_element(By.ID, "done").click()
    text_in(driver, "word-list", "keen")
    assert picked in server.vocab("word", "show", "keen"), picked
    # A rule broken shows its message, and saves nothing.
    driver.find_element(By.ID, "word-word").send_keys("abandon")
    driver.find_element(By.ID, "done").click()
    text_in(driver, "word-form", "already in book")  # under the field it concerns
    driver.find_element(By.ID, "word-word").clear()
    # A word added from the terminal shows in the open page within a few seconds.
    server.vocab("word", "add", "brave", "--book", "TOEIC", "--definition", "showing courage")
    text_in(driver, "word-list", "brave", timeout=10)
    shoot(driver, "words")
    driver.find_element(By.XPATH, "//nav//button[@data-page='study']").click()
    for studied in range(4):
        if studied == 2:  # a word added elsewhere is not in the queue the phone keeps: it asks again
            server.vocab("word", "add", "daring", "--book", "TOEIC", "--definition", "bold")
        visible(driver, "show").click()
        visible(driver, "ratings")
        shoot(driver, "study")
        driver.find_element(By.XPATH, "//div[@id='ratings']/button[@data-rating='good']").click()
        time.sleep(0.3)
    text_in(driver, "study-status", "Nothing to study now")
    assert json.loads(server.vocab("stats", "--json"))["reviews"] == 4
    # The day's queue was asked when studying began and when the new word came, not after
    # every card.
    asked = driver.execute_script("return performance.getEntriesByType('resource').filter((e) => e.name.includes('/api/study/queue')).length")
    assert asked == 2, asked
    for word in ("abandon", "brave", "keen", "daring"):
        shown = server.vocab("word", "show", word, "--json")
        assert '"reviews" : 1' in shown or '"reviews": 1' in shown, shown


def test_an_unpaired_browser_sees_the_pairing_form_and_a_wrong_code_is_refused(server, driver):
    driver.get(server.url)
    visible(driver, "pair-code").send_keys("12345678")
    driver.find_element(By.CSS_SELECTOR, "#pair-form button").click()
    text_in(driver, "pair-error", "not the one the server shows")
    assert driver.find_element(By.ID, "books").is_displayed() is False


def test_the_shell_loads_with_the_server_stopped_and_says_so(server, driver):
    driver.get(server.url)
    visible(driver, "pair-code")
    # The service worker has taken the shell once it controls the page.
    wait(driver, lambda d: d.execute_script("return !!navigator.serviceWorker.controller"), timeout=15)
    manifest = driver.execute_script("return document.querySelector('link[rel=manifest]').href")
    assert manifest.endswith("/manifest.webmanifest"), manifest
    server.process.terminate()
    server.process.wait(timeout=10)
    driver.refresh()
    visible(driver, "offline")
    shoot(driver, "shell-offline")
    assert "Vocab" in driver.find_element(By.TAG_NAME, "h1").text


def reviews_of(server, word):
    """The word's review count as the terminal shows it: 0 when it has no schedule yet (never
    studied); a schedule without a count is a failure, never read as 0."""
    schedule = json.loads(server.vocab("word", "show", word, "--json"))["schedule"]
    if schedule is None:
        return 0
    assert isinstance(schedule.get("reviews"), int), f"no review count in: {schedule}"
    return schedule["reviews"]


def waiting_on_phone(driver):
    """How many entries the page's outbox (IndexedDB "vocab", store "outbox") still holds."""
    return driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const opening = indexedDB.open("vocab", 1);
        opening.onupgradeneeded = () => opening.result.createObjectStore("outbox", { keyPath: "id" });
        opening.onerror = () => done(-1);
        opening.onsuccess = () => {
          const counting = opening.result.transaction("outbox").objectStore("outbox").count();
          counting.onsuccess = () => { opening.result.close(); done(counting.result); };
          counting.onerror = () => done(-1);
        };""")


def sent_and_stays(driver, probe, expected, what):
    """Exactly once: waits until the page has sent everything and `probe()` reads `expected`,
    then shows the page again (anything still waiting would be sent again) and checks, read
    after read for three seconds, that it stays so."""
    wait(driver, lambda d: waiting_on_phone(d) == 0 and probe() == expected, timeout=15)
    driver.refresh()
    wait(driver, lambda d: waiting_on_phone(d) == 0)
    for _ in range(15):
        assert probe() == expected, f"{what}: {probe()!r}, expected {expected!r}"
        time.sleep(0.2)


def test_studying_with_no_network_arrives_once_when_back(server, driver):
    server.vocab("book", "add", "Trip")
    for word, meaning in (("apple", "사과"), ("pear", "배"), ("plum", "자두")):
        server.vocab("word", "add", word, "--book", "Trip", "--definition", meaning)
    driver.get(server.url)
    visible(driver, "pair-code").send_keys(server.codes[-1])
    driver.find_element(By.CSS_SELECTOR, "#pair-form button").click()
    visible(driver, "shelf")
    driver.find_element(By.XPATH, "//nav//button[@data-page='study']").click()
    visible(driver, "show")
    wait(driver, lambda d: d.execute_script("return !!localStorage.getItem('vocab.queue')"))  # the day's queue is on the phone
    port = server.port
    server.process.terminate()
    server.process.wait(timeout=10)
    studied = []
    for _ in range(2):  # in a tunnel: the cards come from the phone, the grades wait in IndexedDB
        studied.append(driver.find_element(By.ID, "card-word").text)
        visible(driver, "show").click()
        visible(driver, "ratings")
        driver.find_element(By.XPATH, "//div[@id='ratings']/button[@data-rating='good']").click()
        wait(driver, lambda d: d.find_element(By.ID, "card-word").text not in studied)
    visible(driver, "offline")
    shoot(driver, "study-offline")
    assert all(reviews_of(server, word) == 0 for word in studied), "nothing reached the server yet"
    server.start(port)
    driver.refresh()  # the page is shown again: what waits is sent
    sent_and_stays(driver, lambda: [reviews_of(server, word) for word in studied], [1, 1], "each grade arrived once")


def test_in_korean_from_the_browsers_language_and_back_with_the_switch(server, driver):
    driver.quit()
    korean = browser("ko")
    try:
        server.vocab("book", "add", "TOEIC")
        server.vocab("word", "add", "brave", "--book", "TOEIC", "--definition", "용감한")
        korean.get(server.url)
        text_in(korean, "pair", "연결 코드")  # the window's catalogue, in the browser's language
        visible(korean, "pair-code").send_keys(server.codes[-1])
        korean.find_element(By.CSS_SELECTOR, "#pair-form button").click()
        text_in(korean, "shelf", "단어 1개")
        shoot(korean, "ko-books")
        korean.find_element(By.XPATH, "//nav//button[@data-page='study']").click()
        visible(korean, "show").click()
        visible(korean, "ratings")
        assert "알맞음" in korean.find_element(By.ID, "ratings").text, korean.find_element(By.ID, "ratings").text
        shoot(korean, "ko-study")
        korean.find_element(By.ID, "language").click()  # the switch: English, kept for next time
        text_in(korean, "ratings", "Good")
        korean.refresh()
        visible(korean, "books")
        assert korean.find_element(By.XPATH, "//nav//button[@data-page='study']").text == "Study"
    finally:
        korean.quit()


def pair(server, driver, shot=None):
    driver.get(server.url)
    visible(driver, "pair-code").send_keys(server.codes[-1])
    if shot:
        shoot(driver, shot)
    driver.find_element(By.CSS_SELECTOR, "#pair-form button").click()
    visible(driver, "shelf")


def play_three_questions(server, driver, name):
    """Game tab: every book, choice mode, 3 questions; taps, then a number key; right/wrong in colour; the score."""
    driver.find_element(By.XPATH, "//nav//button[@data-page='game']").click()
    visible(driver, "game-start")
    wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#game-books input:checked")) >= 1)
    Select(driver.find_element(By.ID, "game-count")).select_by_visible_text("3")
    shoot(driver, f"{name}-setup")
    driver.find_element(By.ID, "game-start").click()
    for question in range(3):
        text_in(driver, "game-progress", f"{question + 1}")
        if question == 1:  # a keyboard's number key answers too
            driver.find_element(By.TAG_NAME, "body").send_keys("2")
        else:
            visible(driver, "game-options").find_element(By.XPATH, "./button[1]").click()
        wait(driver, lambda d: d.find_element(By.ID, "game-verdict").get_attribute("class") in ("right", "wrong"))
        assert driver.find_elements(By.CSS_SELECTOR, "#game-options button.right"), "the right option is shown in colour"
        if question == 0:
            shoot(driver, name)
        visible(driver, "game-next").click()
    visible(driver, "game-score")
    shoot(driver, f"{name}-score")
    return driver.find_element(By.ID, "game-score").text


def test_play_a_three_question_game(server, driver):
    server.vocab("book", "add", "TOEIC")
    for word, meaning in (("brave", "showing courage"), ("eager", "wanting very much"), ("glad", "pleased"), ("keen", "sharp")):
        server.vocab("word", "add", word, "--book", "TOEIC", "--definition", meaning)
    pair(server, driver)
    score = play_three_questions(server, driver, "game")
    assert re.search(r"\d of 3 right \(\d+%\)", score), score
    stats = json.loads(server.vocab("stats", "--json"))
    assert (stats["games"], stats["answered"]) == (1, 3), stats
    assert f'{stats["correct"]} of 3 right' in score, (stats, score)
    # The game's answers are in the store: three more reviews, from the game.
    total = sum(reviews_of(server, word) for word in ("brave", "eager", "glad", "keen"))
    assert total == 3, total


def test_a_word_added_and_cards_studied_offline_arrive_once(server, driver):
    server.vocab("book", "add", "Trip")
    for word, meaning in (("apple", "사과"), ("pear", "배"), ("plum", "자두")):
        server.vocab("word", "add", word, "--book", "Trip", "--definition", meaning)
    pair(server, driver)
    driver.find_element(By.XPATH, "//nav//button[@data-page='study']").click()
    visible(driver, "show")
    wait(driver, lambda d: d.execute_script("return !!localStorage.getItem('vocab.queue')"))
    driver.find_element(By.XPATH, "//nav//button[@data-page='books']").click()
    visible(driver, "shelf")
    wait(driver, lambda d: d.execute_script("return !!localStorage.getItem('vocab.books')"))
    port = server.port
    server.process.terminate()
    server.process.wait(timeout=10)
    driver.find_element(By.XPATH, "//nav//button[@data-page='study']").click()
    studied = []
    for _ in range(2):
        visible(driver, "show")
        studied.append(driver.find_element(By.ID, "card-word").text)
        driver.find_element(By.ID, "show").click()
        visible(driver, "ratings").find_element(By.XPATH, "./button[@data-rating='good']").click()
        wait(driver, lambda d: d.find_element(By.ID, "card-word").text not in studied)
    # A new word, with no network: kept on the phone, shown as waiting.
    driver.find_element(By.XPATH, "//nav//button[@data-page='books']").click()
    open_book(driver, "Trip")
    add_word(driver, "fig", "무화과")
    text_in(driver, "word-list", "Waiting to be sent")
    shoot(driver, "word-offline")
    assert "fig" not in server.vocab("word", "list", "--book", "Trip")
    server.start(port)
    sent_and_stays(driver, lambda: (server.vocab("word", "list", "--book", "Trip", "--json").count('"fig"'),
                                    [reviews_of(server, word) for word in studied]),
                   (1, [1, 1]), "the word and each grade arrived once")


def test_import_a_file_then_export_the_book(server, driver):
    server.vocab("book", "add", "Imported")
    pair(server, driver)
    driver.find_element(By.XPATH, "//ul[@id='shelf']//button[contains(., 'Imported')]").click()
    visible(driver, "word-new")
    upload = os.path.join(server.home, "words.csv")
    with open(upload, "w", encoding="utf-8") as file:
        file.write("word,definition\nzeal,great energy\nzest,enthusiasm\n")
    driver.find_element(By.CSS_SELECTOR, "#transfer summary").click()
    driver.find_element(By.ID, "import-file").send_keys(upload)
    driver.find_element(By.ID, "import-start").click()
    text_in(driver, "toast", "2 added")
    text_in(driver, "word-list", "zest")
    shoot(driver, "import")
    exported = driver.execute_script("return fetch(document.getElementById('export-link').href).then(r => r.text())")
    assert "zeal,great energy" in exported and "zest,enthusiasm" in exported, exported
    # A malformed file changes nothing and says why.
    books_before = server.vocab("book", "list", "--json")
    words_before = server.vocab("word", "list", "--json")
    with open(upload, "wb") as file:
        file.write(b"PK\x03\x04 not really a workbook")
    os.rename(upload, upload.replace(".csv", ".xlsx"))
    driver.find_element(By.ID, "import-file").send_keys(upload.replace(".csv", ".xlsx"))
    driver.find_element(By.ID, "import-start").click()
    wait(driver, lambda d: d.find_element(By.ID, "import-error").text.strip() != "")
    assert server.vocab("book", "list", "--json") == books_before
    assert server.vocab("word", "list", "--json") == words_before


def test_a_scanned_code_pairs_and_a_word_is_edited_and_heard(server, driver):
    server.vocab("book", "add", "TOEIC")
    server.vocab("word", "add", "brave", "--book", "TOEIC", "--definition", "showing courage")
    driver.get(server.url + "#pair=" + server.codes[-1])  # what the QR code opens
    visible(driver, "shelf")
    driver.find_element(By.XPATH, "//ul[@id='shelf']//button[contains(., 'TOEIC')]").click()
    wait(driver, lambda d: d.find_elements(By.XPATH, "//ul[@id='word-list']//button[contains(., 'brave')]"))
    driver.find_element(By.XPATH, "//ul[@id='word-list']//button[contains(., 'brave')]").click()
    visible(driver, "hear")
    wait(driver, lambda d: d.find_element(By.ID, "word-word").get_attribute("value") == "brave")
    sound = driver.execute_script("return fetch('/api/words/' + arguments[0] + '/sound').then(r => r.headers.get('content-type') + ' ' + r.status)",
                                  re.search(r'"id"\s*:\s*"([0-9a-f-]+)"', server.vocab("word", "show", "brave", "--json")).group(1))
    assert sound == "audio/wav 200", sound
    driver.find_element(By.ID, "word-detail").send_keys("A brave rescue.")
    tap_when_still(driver, "word-memorized")
    wait(driver, lambda d: d.find_element(By.ID, "word-memorized").is_selected())
    shoot(driver, "edit")
    driver.find_element(By.ID, "done").click()
    wait(driver, lambda d: "A brave rescue." in server.vocab("word", "show", "brave"))
    assert '"memorized" : true' in server.vocab("word", "show", "brave", "--json").replace('": ', '" : ')


def test_in_korean_a_learner_pairs_adds_with_the_dictionary_studies_and_plays(server, driver):
    driver.quit()
    korean = browser("ko")
    try:
        cover = os.path.join(server.home, "cover.png")
        subprocess.run(["convert", "-size", "96x96", "gradient:#62a0ea-#1a5fb4", cover], check=True)
        server.vocab("book", "add", "TOEIC", "--image", cover)
        for word, meaning in (("brave", "용감한"), ("eager", "열망하는"), ("glad", "기쁜")):
            server.vocab("word", "add", word, "--book", "TOEIC", "--definition", meaning)
        pair(server, korean, shot="ko-pair")
        wait(korean, lambda d: d.execute_script("const i = document.querySelector('#shelf img.cover'); return !!i && i.complete && i.naturalWidth === 96"))
        shoot(korean, "ko-shelf")  # the book's cover on the shelf
        korean.find_element(By.XPATH, "//ul[@id='shelf']//button[contains(., 'TOEIC')]").click()
        visible(korean, "word-new").click()
        visible(korean, "word-word").send_keys("keen")
        korean.find_element(By.ID, "dictionary").click()
        wait(korean, lambda d: d.find_element(By.ID, "word-definition").get_attribute("value") != "")
        shoot(korean, "ko-dictionary")
        korean.find_element(By.ID, "done").click()
        text_in(korean, "word-list", "keen")
        korean.find_element(By.ID, "word-word").send_keys("keen")  # again: refused in Korean, naming the word and the book
        korean.find_element(By.ID, "done").click()
        text_in(korean, "word-form", "“keen”은(는) 이미 “TOEIC” 단어장에 있습니다.")
        korean.find_element(By.ID, "word-word").clear()
        shoot(korean, "ko-words")
        korean.find_element(By.XPATH, "//nav//button[@data-page='study']").click()
        for card in range(3):
            visible(korean, "show").click()
            ratings = visible(korean, "ratings")
            if card == 0:  # each button's interval, worded by the server in the page's language
                shoot(korean, "ko-study")
                assert re.search(r"\d+(분|시간|일|개월|년)", ratings.text), ratings.text
            ratings.find_element(By.XPATH, "./button[@data-rating='good']").click()
            time.sleep(0.3)
        score = play_three_questions(server, korean, "ko-game")
        assert "정답" in score, score
    finally:
        korean.quit()


def console_errors(driver):
    """What the page's console said at the level of an error since it was last asked."""
    return [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def test_every_field_keeps_a_visible_label_and_no_screen_logs_an_error(server, driver):
    import urllib.request
    with urllib.request.urlopen(server.url + "favicon.ico") as answer:
        assert answer.status == 200 and answer.headers["Content-Type"] == "image/png", answer.headers
    driver.get(server.url)
    visible(driver, "pair-code").send_keys(server.codes[-1])
    driver.find_element(By.CSS_SELECTOR, "#pair-form button").click()
    visible(driver, "book-name").send_keys("Labels")
    driver.find_element(By.CSS_SELECTOR, "#book-form button").click()
    open_book(driver, "Labels")
    visible(driver, "word-new").click()
    visible(driver, "word-word").send_keys("keen")
    driver.find_element(By.ID, "dictionary").click()
    wait(driver, lambda d: d.find_element(By.ID, "word-detail").get_attribute("value") != "")
    shoot(driver, "word-form")
    fields = [field for field in driver.find_elements(By.CSS_SELECTOR, "#word-form input")
              if field.is_displayed() and field.get_attribute("type") != "checkbox"]
    assert len(fields) == 6, [field.get_attribute("id") for field in fields]
    for field in fields:
        # Filled by the Dictionary, each field still says what it is, above it and inside the screen.
        label = field.find_element(By.XPATH, "./ancestor::label")
        name = label.find_element(By.TAG_NAME, "span")
        assert name.is_displayed() and name.text.strip(), field.get_attribute("id")
        assert name.rect["y"] + name.rect["height"] <= field.rect["y"] + 1, (field.get_attribute("id"), name.rect, field.rect)
        assert 0 <= name.rect["x"] and name.rect["x"] + name.rect["width"] <= 390, name.rect
    driver.find_element(By.ID, "done").click()
    text_in(driver, "word-list", "keen")
    driver.find_element(By.ID, "book-edit").click()
    for field_id in ("book-edit-name", "book-edit-explain"):
        label = visible(driver, field_id).find_element(By.XPATH, "./ancestor::label")
        assert label.text.strip(), field_id
    for page in ("study", "game", "books"):
        driver.find_element(By.XPATH, f"//nav//button[@data-page='{page}']").click()
        visible(driver, page)
        time.sleep(0.5)
    errors = console_errors(driver)
    assert errors == [], errors


def axe_violations(driver):
    """What axe-core (4.x, the copy PyPI's axe-playwright-python carries; .ci/run installs it)
    finds on the page as it is now: a list of "rule: where" lines."""
    import importlib.util
    spec = importlib.util.find_spec("axe_playwright_python")
    assert spec and spec.submodule_search_locations, "axe-core is missing: .ci/run installs axe-playwright-python"
    with open(os.path.join(spec.submodule_search_locations[0], "axe.min.js"), encoding="utf-8") as source:
        driver.execute_script(source.read())
    result = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        axe.run(document).then((r) => done(r.violations.map((v) => v.id + ": " + v.nodes.map((n) => n.target.join(" ")).join(", "))))
          .catch((e) => done(["axe failed: " + e]));""")
    return result


def test_progress_is_drawn_in_english_and_korean_found_by_axe_clean_and_kept_offline(server, driver):
    server.vocab("book", "add", "TOEIC")
    for word in ("keen", "eager", "avid"):
        server.vocab("word", "add", word, "--definition", "meaning of " + word, "--book", "TOEIC")
    now = time.time()
    stamp = lambda days_ago, minutes=0: time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now - days_ago * 86400 + minutes * 60))
    # Reviews 9, 5 and 2 days ago (three study days), each word's later one a day or more on.
    for word in ("keen", "eager", "avid"):
        server.vocab("review", word, "--rating", "good", "--now", stamp(9))
    server.vocab("review", "keen", "--rating", "good", "--now", stamp(5))
    server.vocab("review", "eager", "--rating", "again", "--now", stamp(2))
    driver.get(server.url)
    visible(driver, "pair-code").send_keys(server.codes[-1])
    driver.find_element(By.CSS_SELECTOR, "#pair-form button").click()
    visible(driver, "shelf")
    driver.find_element(By.XPATH, "//nav//button[@data-page='progress']").click()
    text_in(driver, "progress-calendar-summary", "5 reviews on 3 of the last 365 days")
    text_in(driver, "progress-standing-summary", "0 new")
    for key in ("due", "calendar", "standing", "added", "hours", "memory"):
        drawing = driver.find_element(By.CSS_SELECTOR, f"#progress-charts svg[aria-labelledby='progress-{key}-title progress-{key}-summary']")
        assert drawing.get_attribute("role") == "img", key
        assert drawing.rect["width"] <= 390, (key, drawing.rect)
        assert driver.find_element(By.ID, f"progress-{key}-summary").text.strip(), key
    cells = driver.find_elements(By.CSS_SELECTOR, "table.retention th[scope=row] ~ td")
    assert len(cells) == 15, len(cells)
    # One book, the last 30 days: the same words (the only book) over another span.
    Select(driver.find_element(By.ID, "progress-days")).select_by_value("30")
    text_in(driver, "progress-calendar-summary", "of the last 30 days")
    Select(driver.find_element(By.ID, "progress-book")).select_by_visible_text("TOEIC")
    text_in(driver, "progress-calendar-summary", "5 reviews on 3 of the last 30 days")
    shoot(driver, "progress")
    driver.execute_script("document.getElementById('progress-retention-title').scrollIntoView()")
    shoot(driver, "progress-lower")
    driver.execute_script("window.scrollTo(0, 0)")
    violations = axe_violations(driver)
    assert violations == [], violations
    driver.find_element(By.ID, "language").click()
    text_in(driver, "progress-calendar-summary", "3일 공부(최근 30일 중)")
    assert driver.find_element(By.CSS_SELECTOR, "#progress h2").text == "진도"
    shoot(driver, "progress-ko")
    driver.find_element(By.ID, "language").click()
    text_in(driver, "progress-calendar-summary", "of the last 30 days")
    errors = console_errors(driver)
    assert errors == [], errors
    # Offline, the report kept on the phone is drawn, with the time it was made.
    server.process.terminate()
    server.process.wait(timeout=10)
    driver.find_element(By.XPATH, "//nav//button[@data-page='books']").click()
    driver.find_element(By.XPATH, "//nav//button[@data-page='progress']").click()
    text_in(driver, "progress-note", "Kept on this phone")
    text_in(driver, "progress-calendar-summary", "5 reviews on 3 of the last 30 days")


def test_the_game_question_screen_has_nothing_axe_finds(server, driver):
    server.vocab("book", "add", "Quiz")
    for word in ("keen", "eager", "avid", "zeal"):
        server.vocab("word", "add", word, "--definition", "meaning of " + word, "--book", "Quiz")
    driver.get(server.url)
    visible(driver, "pair-code").send_keys(server.codes[-1])
    driver.find_element(By.CSS_SELECTOR, "#pair-form button").click()
    visible(driver, "shelf")
    driver.find_element(By.XPATH, "//nav//button[@data-page='game']").click()
    visible(driver, "game-start").click()
    visible(driver, "game-prompt")
    wait(driver, lambda d: d.find_element(By.ID, "game-prompt").text.strip() != "")
    violations = axe_violations(driver)
    assert violations == [], violations
    # The same screen in Korean, with the offline notice and a toast showing (fixed at the
    # screen's foot: they too must sit inside a landmark).
    driver.find_element(By.ID, "language").click()
    wait(driver, lambda d: d.find_element(By.ID, "game-progress").text.strip() != "" and d.find_element(By.TAG_NAME, "html").get_attribute("lang") == "ko")
    driver.execute_script("""for (const id of ['offline', 'toast']) { const e = document.getElementById(id); e.hidden = false; e.textContent ||= '알림'; }""")
    violations = axe_violations(driver)
    assert violations == [], violations


def main():
    tests = [test_pair_make_a_book_add_words_and_study, test_an_unpaired_browser_sees_the_pairing_form_and_a_wrong_code_is_refused,
             test_the_shell_loads_with_the_server_stopped_and_says_so, test_studying_with_no_network_arrives_once_when_back,
             test_in_korean_from_the_browsers_language_and_back_with_the_switch, test_play_a_three_question_game,
             test_a_word_added_and_cards_studied_offline_arrive_once, test_import_a_file_then_export_the_book,
             test_a_scanned_code_pairs_and_a_word_is_edited_and_heard,
             test_in_korean_a_learner_pairs_adds_with_the_dictionary_studies_and_plays,
             test_every_field_keeps_a_visible_label_and_no_screen_logs_an_error,
             test_progress_is_drawn_in_english_and_korean_found_by_axe_clean_and_kept_offline,
             test_the_game_question_screen_has_nothing_axe_finds]
    run_tests("Web", tests, Server, lambda server: server.stop())


def run_tests(label, tests, start, finish):
    """Runs the tests named on the command line (all of them when none is), each with what
    `start()` makes (given to `finish` after) and a phone-sized browser; prints how each went
    and exits 1 if any failed."""
    selected = [t for t in tests if len(sys.argv) < 2 or t.__name__ in sys.argv[1:]]
    failed = 0
    for test in selected:
        context, driver = start(), None
        started = time.time()
        try:
            driver = browser()
            test(context, driver)
            print(f"{label} test {test.__name__} passed ({time.time() - started:.1f} s)")
        except Exception:
            failed += 1
            print(f"{label} test {test.__name__} FAILED:")
            traceback.print_exc()
        finally:
            if driver:
                try:
                    driver.quit()
                except Exception:
                    pass  # a test that opened a browser of its own quit this one
            finish(context)
    print(f"{label} tests: {len(selected) - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

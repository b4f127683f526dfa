"""End-to-end tests of vocab-desktop: a real window under Xvfb, driven through the
accessibility tree, on a real SQLite store shared with the terminal app, syncing through the
real PostgreSQL the suite starts. Run by Tests/Desktop/run.sh (from scripts/test.sh)."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import traceback

import pyatspi

from atspi_driver import application, click, find, find_all, gone, type_into, vocab, wait_for

DESKTOP = os.environ["VOCAB_TEST_DESKTOP_BINARY"]
TERMINAL = os.environ["VOCAB_TEST_BINARY"]


class Window:
    """One vocab-desktop process on its own data and config folders."""

    def __init__(self, root, name):
        self.environment = dict(os.environ)
        self.environment.update({
            "VOCAB_HOME": os.path.join(root, name, "data"),
            "XDG_CONFIG_HOME": os.path.join(root, name, "config"),
            "PGPASSWORD": "",
            "GSK_RENDERER": "cairo",
            "LANG": "C.UTF-8",
        })
        self.process = None
        self.app = None

    def start(self):
        self.process = subprocess.Popen([DESKTOP], env=self.environment)
        self.app = application("vocab-desktop")
        find(self.app, "frame", "Vocab", timeout=20)
        return self

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
        if self.process and self.process.returncode not in (0, -15, None):
            raise AssertionError(f"vocab-desktop exited with {self.process.returncode}")

    def terminal(self, *arguments, input_text=""):
        return vocab(TERMINAL, self.environment, *arguments, input_text=input_text)

    def find(self, *args, **kwargs):
        return find(self.app, *args, **kwargs)

    def click(self, role, name=None, **kwargs):
        click(self.find(role, name, **kwargs))

    def page(self, name):
        """Switches to a page of the window and waits until it is shown."""
        tab = self.find("page tab", name)
        click(tab)
        wait_for(f"page {name}", lambda: tab.getState().contains(pyatspi.STATE_SELECTED))
        time.sleep(0.3)

    def words(self):
        return json.loads(self.terminal("word", "list", "--json"))


def test_books_words_dictionary_and_live_data(root):
    window = Window(root, "shelf").start()
    try:
        window.find("label", "No books yet")
        window.click("push button", "New book")
        type_into(window.find("text", "Book name"), "TOEIC")
        type_into(window.find("text", "Explain"), "words for the exam")
        window.click("push button", "Save book")
        # A new book opens its (empty) word list.
        window.find("label", "No words here yet: add one, or import a file.")
        window.click("push button", "Add word")
        type_into(window.find("text", "Word"), "happy")
        window.click("push button", "Dictionary")
        window.find("label", prefix="Filled from the dictionary")
        window.click("push button", "Done")
        window.find("label", "happy")
        saved = [w for w in window.words() if w["word"] == "happy"]
        assert saved and saved[0]["definition"].startswith("(adj.)"), saved
        assert saved[0]["pronunciation"], "IPA from espeak-ng"
        # Done with a duplicate word shows the error next to the field and saves nothing.
        window.click("push button", "Add word")
        type_into(window.find("text", "Word"), "happy")
        window.click("push button", "Done")
        window.find("label", 'The word "happy" is already in book "TOEIC".')
        window.click("push button", "Cancel")
        assert len(window.words()) == 1
        # Words written by another process appear within about a second (PRAGMA data_version).
        window.terminal("word", "add", "사과", "--book", "TOEIC", "--definition", "apple")
        window.find("label", "사과", timeout=5)
        # The shelf counts follow too.
        window.click("push button", "Back to books")
        window.find("label", prefix="2 words")
    finally:
        window.stop()


def test_game_on_a_store_that_fills_later_and_study(root):
    window = Window(root, "game").start()
    try:
        window.page("Test")
        window.click("push button", "Start game")
        window.find("label", "You have no books yet. Make one on the Books page.")
        # Data arrives after the screen was made (the original app's bug): the game sees it.
        window.terminal("book", "add", "Fruit")
        for word, meaning in [("apple", "사과"), ("pear", "배"), ("grape", "포도")]:
            window.terminal("word", "add", word, "--book", "Fruit", "--definition", meaning)
        time.sleep(1.2)
        window.click("push button", "Start game")
        for number in range(3):
            window.find("label", f"Question {number + 1} of 3")
            click(window.find("push button", prefix="1. "))
            wait_for("a verdict", lambda: find_all(window.app, "label", prefix="✓ Right") or find_all(window.app, "label", prefix="✗ Wrong"))
            window.click("push button", "Next question")
        score = window.find("label", prefix="Score: ")
        assert "/3" in score.name, score.name
        stats = json.loads(window.terminal("stats", "--json"))
        assert stats["games"] == 1 and stats["answered"] == 3, stats
        # Study: a new word added now is waiting; rate it Good.
        window.terminal("word", "add", "melon", "--book", "Fruit", "--definition", "멜론")
        window.page("Study")
        window.find("label", "melon", timeout=5)
        window.click("push button", "Show answer")
        good = window.find("push button", prefix="Good (")
        assert good.name == "Good (10m)", good.name
        click(good)
        shown = wait_for("the rating to be saved",
                         lambda: json.loads(window.terminal("word", "show", "melon", "--json"))["schedule"])
        assert shown["reviews"] == 1 and shown["state"] == "learning", shown
    finally:
        window.stop()


def test_sync_two_stores_through_the_cloud(root):
    admin_url = os.environ.get("VOCAB_TEST_PG_ADMIN")
    admin_password = os.environ.get("VOCAB_TEST_PG_PASSWORD")
    if not admin_url:
        raise AssertionError("no PostgreSQL: run through scripts/test.sh")
    admin = dict(os.environ, PGPASSWORD=admin_password, XDG_CONFIG_HOME=os.path.join(root, "admin"))
    vocab(TERMINAL, admin, "cloud", "init", "--admin", admin_url)
    user = "desk_" + str(os.getpid())
    vocab(TERMINAL, admin, "cloud", "add-user", user, "--admin", admin_url, input_text="pw\n")
    url = admin_url.replace("postgres@", user + "@")

    window = Window(root, "sync").start()
    other = Window(root, "other")  # the terminal on a second device
    try:
        window.find("label", "Cloud: not logged in")
        window.click("push button", "Log in")
        type_into(window.find("text", "Server address"), url)
        type_into(window.find("password text", "Password"), "pw")
        window.click("push button", "Log in to the server")
        window.find("label", prefix="Cloud: available", timeout=15)
        window.terminal("book", "add", "Shared")
        window.terminal("word", "add", "glad", "--book", "Shared", "--definition", "기쁜")
        window.click("push button", "Sync")
        window.find("label", "Synced: pulled 0, pushed 2", timeout=20)
        # The second device gets them, adds one, and the window's next sync brings it in.
        other.terminal("login", url, input_text="pw\n")
        other.terminal("sync")
        assert [w["word"] for w in other.words()] == ["glad"], other.words()
        other.terminal("word", "add", "merry", "--book", "Shared", "--definition", "즐거운")
        other.terminal("sync")
        window.click("push button", "Sync")
        window.find("label", "Synced: pulled 1, pushed 0", timeout=20)
        click(window.find("push button", "Open book Shared"))
        window.find("label", "merry", timeout=5)
    finally:
        window.stop()


def main():
    tests = [test_books_words_dictionary_and_live_data, test_game_on_a_store_that_fills_later_and_study,
             test_sync_two_stores_through_the_cloud]
    only = sys.argv[1:]
    failures = 0
    for test in tests:
        if only and test.__name__ not in only:
            continue
        root = tempfile.mkdtemp(prefix="vocab-desktop-test-")
        started = time.monotonic()
        try:
            test(root)
            print(f"Desktop test {test.__name__} passed ({time.monotonic() - started:.1f} s)", flush=True)
        except Exception:
            failures += 1
            print(f"Desktop test {test.__name__} FAILED:", flush=True)
            traceback.print_exc()
        finally:
            shutil.rmtree(root, ignore_errors=True)
    print(f"Desktop tests: {failures} failed" if failures else "Desktop tests: all passed", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

"""Many learners on one `vocab serve --cloud` (issue 28), against the real server, the suite's
PgBouncer (transaction pooling) and PostgreSQL: learners sign in with their cloud accounts in a
real headless Chromium at a phone's size, their words reach their desktops through `vocab sync`
and back, and nobody reaches anybody else's words.

The security list (each an assertion below):
- the cookie of another user: bob's cookie reads bob's words only; alice's ids through any API
  with bob's cookie are "not found", and nothing of alice's changes;
- a forged device secret (a real device id, a made-up secret): 401, and counted against the address;
- a revoked device (signed out from the desktop, from the page, by `logout --everywhere`): 401 at
  its next request;
- a deleted user (the administrator drops the role): the device is refused at its next request;
- a cross-site POST (another Origin, or no X-Vocab-Request header): 403, nothing changed;
- an oversized body (2 MiB): 413;
- a slow client (half a request, then nothing): the server closes it after its idle time-out
  and answers everyone else meanwhile;
- 50 wrong passwords: after 5, "try again in N s" (429, Retry-After) for that account and that
  address; another learner from another address signs in meanwhile;
- passwords and device secrets never in the server's output, and the server's cache holds no
  secret.
"""
import http.client
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import uuid

from selenium.common.exceptions import ElementNotInteractableException
from selenium.webdriver.common.by import By

from web_tests import BINARY, add_word, browser, open_book, run_tests, sent_and_stays, shoot, tap, text_in, visible, wait, waiting_on_phone

ADMIN_URL = os.environ.get("VOCAB_TEST_PG_ADMIN", "")
ADMIN_PASSWORD = os.environ.get("VOCAB_TEST_PG_PASSWORD", "")
POOLER = os.environ.get("VOCAB_TEST_PGBOUNCER", "")
SERVER_PASSWORD = os.environ.get("VOCAB_TEST_SERVER_PASSWORD", "")


class Cloud:
    """The suite's PostgreSQL with the Vocab schema, users made by `vocab cloud add-user`."""

    def __init__(self):
        if not ADMIN_URL or not POOLER or not SERVER_PASSWORD:
            raise RuntimeError("needs the suite's PostgreSQL, PgBouncer and server role (VOCAB_TEST_PG_ADMIN, VOCAB_TEST_PGBOUNCER, VOCAB_TEST_SERVER_PASSWORD)")
        self.home = tempfile.mkdtemp(prefix="vocab-cloud-web-")
        self.admin_env = dict(os.environ, PGPASSWORD=ADMIN_PASSWORD, XDG_CONFIG_HOME=self.home + "/admin")
        subprocess.run([BINARY, "cloud", "init", "--admin", ADMIN_URL], env=self.admin_env, check=True, capture_output=True)
        self.database = ADMIN_URL.rsplit("/", 1)[1]

    def add_user(self, prefix):
        name = f"{prefix}_{uuid.uuid4().hex[:8]}"
        password = f"pw-{uuid.uuid4().hex}"
        subprocess.run([BINARY, "cloud", "add-user", name, "--admin", ADMIN_URL], env=self.admin_env, input=password + "\n",
                       check=True, capture_output=True, text=True)
        return name, password

    def url(self):
        """Where a Vocab server reaches the cloud: as the server tier's role, through PgBouncer."""
        return f"postgresql://vocab_server@{POOLER}/{self.database}"

    def psql(self, sql):
        host, port = ADMIN_URL.split("@")[1].split("/")[0].split(":")
        subprocess.run(["psql", "-h", host, "-p", port, "-U", "postgres", "-d", self.database, "-v", "ON_ERROR_STOP=1", "-c", sql],
                       env=self.admin_env, check=True, capture_output=True)

    def stop(self):
        shutil.rmtree(self.home, ignore_errors=True)


class Desktop:
    """A learner's desktop: a data folder of its own, signed in through the Vocab server."""

    def __init__(self, cloud, server, user, password):
        self.home = tempfile.mkdtemp(prefix="vocab-desktop-", dir=cloud.home)
        self.env = dict(os.environ, VOCAB_HOME=self.home + "/data", XDG_CONFIG_HOME=self.home + "/config", NO_COLOR="1", PGPASSWORD="")
        self.vocab("login", f"http://{user}@127.0.0.1:{server.port}", input=password + "\n")

    def vocab(self, *arguments, input=""):
        return subprocess.run([BINARY, *arguments], env=self.env, input=input, check=True, capture_output=True, text=True).stdout


class CloudServer:
    """`vocab serve --cloud` through PgBouncer, on a free loopback port."""

    def __init__(self, cloud, *extra):
        self.home = tempfile.mkdtemp(prefix="vocab-serve-", dir=cloud.home)
        env = dict(os.environ, VOCAB_HOME=self.home + "/data", XDG_CONFIG_HOME=self.home + "/config", NO_COLOR="1", PGPASSWORD=SERVER_PASSWORD)
        self.output = open(self.home + "/output.txt", "w+")
        self.process = subprocess.Popen([BINARY, "serve", "--listen", "127.0.0.1:0", "--cloud", cloud.url(), *extra], env=env,
                                        stdout=subprocess.PIPE, stderr=self.output, text=True)
        line = self.process.stdout.readline()
        found = re.search(r"127\.0\.0\.1:(\d+)", line)
        if not found:
            raise RuntimeError("vocab serve --cloud did not start: " + line)
        self.port = int(found.group(1))
        self.url = f"http://127.0.0.1:{self.port}/"

    def request(self, method, path, body=None, cookie=None, headers=None, raw=None):
        """One request; returns (status, headers, JSON or text)."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        sent = {"X-Vocab-Request": "1"} if method != "GET" else {}
        if body is not None:
            sent["Content-Type"] = "application/json"
        if cookie:
            sent["Cookie"] = "vocab_device=" + cookie
        sent.update(headers or {})
        connection.request(method, path, body=raw if raw is not None else (json.dumps(body) if body is not None else None), headers=sent)
        response = connection.getresponse()
        text = response.read().decode("utf-8", "replace")
        connection.close()
        # A header sent more than once (Set-Cookie: the device's and the browser's mark) keeps every value, a line each.
        received = {}
        for name, value in response.getheaders():
            received[name] = received[name] + "\n" + value if name in received else value
        try:
            return response.status, received, json.loads(text) if text else None
        except ValueError:
            return response.status, received, text

    def sign_in(self, user, password, address=None):
        """Signs in over HTTP; returns the device cookie's value (role.secret)."""
        headers = {"X-Forwarded-For": address} if address else {}
        status, headers, answer = self.request("POST", "/api/signin", {"user": user, "password": password}, headers=headers)
        assert status == 200, (status, answer)
        return re.search(r"vocab_device=([^;]+)", headers["Set-Cookie"]).group(1)

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
        self.output.seek(0)
        return self.process.stdout.read() + self.output.read()


def sign_in_in_the_browser(driver, server, user, password):
    driver.get(server.url)
    visible(driver, "signin-user").send_keys(user)
    driver.find_element(By.ID, "signin-password").send_keys(password)
    shoot(driver, "signin")
    driver.find_element(By.ID, "signin").click()
    visible(driver, "book-name")


def study_one_card(driver):
    driver.find_element(By.XPATH, "//nav//button[@data-page='study']").click()
    visible(driver, "show").click()
    visible(driver, "ratings").find_element(By.XPATH, "./button[@data-rating='good']").click()
    time.sleep(0.5)


def test_two_learners_on_their_phones_find_their_words_on_their_desktops(cloud, driver):
    alice, alice_password = cloud.add_user("alice")
    bob, bob_password = cloud.add_user("bob")
    server = CloudServer(cloud)
    bob_driver = None
    try:
        sign_in_in_the_browser(driver, server, alice, alice_password)
        visible(driver, "book-name").send_keys("Phone")
        driver.find_element(By.CSS_SELECTOR, "#book-form button").click()
        open_book(driver, "Phone")
        add_word(driver, "keen", "eager")
        study_one_card(driver)

        desktop = Desktop(cloud, server, alice, alice_password)
        desktop.vocab("sync")
        shown = desktop.vocab("word", "show", "keen", "--json")
        assert re.search(r'"reviews"\s*:\s*1', shown), shown  # the word and the card studied on the phone
        desktop.vocab("word", "add", "brave", "--book", "Phone", "--definition", "showing courage")
        desktop.vocab("sync")
        driver.find_element(By.XPATH, "//nav//button[@data-page='books']").click()
        open_book(driver, "Phone")
        text_in(driver, "word-list", "brave", timeout=15)  # the desktop's word, on the phone
        shoot(driver, "cloud-words")

        # Bob at the same time: his own empty shelf, and alice's ids lead nowhere.
        bob_driver = browser()
        sign_in_in_the_browser(bob_driver, server, bob, bob_password)
        assert bob_driver.find_elements(By.XPATH, "//ul[@id='shelf']//button") == []
        alice_cookie = server.sign_in(alice, alice_password)
        bob_cookie = server.sign_in(bob, bob_password)
        books = server.request("GET", "/api/books", cookie=alice_cookie)[2]
        book_id = next(book["id"] for book in books if book["name"] == "Phone")
        words = server.request("GET", f"/api/books/{book_id}/words", cookie=alice_cookie)[2]["words"]
        word_id = next(word["id"] for word in words if word["word"] == "keen")
        assert server.request("GET", "/api/books", cookie=bob_cookie)[2] == []
        before_words = server.request("GET", f"/api/books/{book_id}/words", cookie=alice_cookie)[2]
        before_books = server.request("GET", "/api/books", cookie=alice_cookie)[2]
        before_reviews = json.loads(desktop.vocab("stats", "--json"))["reviews"]
        # Each attempt, a well-formed request that would work with alice's cookie, is answered
        # "not found" (an id that does not exist for bob) — never a refusal of its form, which
        # would prove nothing — and carries none of alice's data.
        for method, path, body in (("GET", f"/api/books/{book_id}/words", None), ("GET", f"/api/books/{book_id}/export", None),
                                   ("PUT", f"/api/books/{book_id}", {"name": "Mine"}), ("DELETE", f"/api/books/{book_id}", None),
                                   ("PUT", f"/api/words/{word_id}", {"definition": "taken"}), ("DELETE", f"/api/words/{word_id}", None),
                                   ("GET", f"/api/words/{word_id}/sound", None),
                                   ("POST", "/api/reviews", {"reviews": [{"id": "0190a000-0000-7000-8000-0000000000b0", "wordId": word_id,
                                                                          "rating": "good", "at": "2026-11-30T08:00:00Z"}]}),
                                   ("POST", "/api/words", {"bookId": book_id, "word": "stolen"})):
            status, _, answer = server.request(method, path, body, cookie=bob_cookie)
            # (Deleting a word that is not there is answered "not deleted", a review of one "none added":
            # a phone's outbox may send a delete twice, or a review of a word deleted meanwhile.)
            assert status == 404 or (method, path, status, answer) in (("DELETE", f"/api/words/{word_id}", 200, {"deleted": False}),
                                                                       ("POST", "/api/reviews", 200, {"added": 0})), \
                (method, path, status, answer)
            assert "keen" not in json.dumps(answer) and "Phone" not in json.dumps(answer), (method, path, answer)
        # And every one of the nine changed nothing of alice's, read again as alice.
        assert server.request("GET", "/api/books", cookie=alice_cookie)[2] == before_books
        assert server.request("GET", f"/api/books/{book_id}/words", cookie=alice_cookie)[2] == before_words
        assert server.request("GET", f"/api/words/{word_id}/sound", cookie=alice_cookie)[0] == 200
        desktop.vocab("sync")
        assert "taken" not in desktop.vocab("word", "show", "keen") and "stolen" not in desktop.vocab("word", "list", "--book", "Phone")
        assert json.loads(desktop.vocab("stats", "--json"))["reviews"] == before_reviews, "bob's grade did not count"
        assert "Phone" in desktop.vocab("book", "list")

        # The account's devices, on the phone: this one, the desktop and the one signed in over HTTP.
        driver.find_element(By.XPATH, "//nav//button[@data-page='account']").click()
        text_in(driver, "device-list", "this device")
        text_in(driver, "device-list", "terminal on")
        assert driver.find_element(By.ID, "account-name").text == alice
        shoot(driver, "cloud-account")

        # Signed out from the desktop: the phone is refused at its next request and shows the sign-in.
        devices = json.loads(desktop.vocab("devices", "--json"))
        phone = next(device["id"] for device in devices if device["label"].startswith("Web"))
        desktop.vocab("devices", "--sign-out", phone)
        try:
            driver.find_element(By.XPATH, "//nav//button[@data-page='books']").click()
        except ElementNotInteractableException:
            pass  # the phone's own poll (every second) was refused first and already shows the sign-in
        wait(driver, lambda d: d.find_element(By.ID, "signin-user").is_displayed(), timeout=20)
        shoot(driver, "cloud-signed-out")
    finally:
        if bob_driver:
            bob_driver.quit()
        output = server.stop()
        for secret in (alice_password, bob_password):
            assert secret not in output, "a password in the server's output"
        assert not re.search(r"vd_[0-9a-f]{32}\.[0-9a-f]{64}", output), "a device secret in the server's output"


def test_the_security_list(cloud, driver):
    alice, alice_password = cloud.add_user("alice")
    bob, bob_password = cloud.add_user("bob")
    carol, carol_password = cloud.add_user("carol")
    server = CloudServer(cloud, "--behind-proxy")  # X-Forwarded-For names the client: addresses can differ
    try:
        alice_cookie = server.sign_in(alice, alice_password, address="10.0.0.1")
        role, secret = alice_cookie.split(".")
        assert server.request("GET", "/api/books", cookie=alice_cookie)[0] == 200

        # A forged secret for a real device, and a made-up device.
        forged = role + "." + ("0" * 64)
        assert server.request("GET", "/api/books", cookie=forged)[0] == 401
        assert server.request("GET", "/api/books", cookie="vd_" + "1" * 32 + "." + "2" * 64)[0] == 401
        assert server.request("GET", "/api/books", cookie="../../etc/passwd")[0] == 401

        # A cross-site POST: another origin, or a form that cannot set the header.
        status = server.request("POST", "/api/books", {"name": "Evil"}, cookie=alice_cookie, headers={"Origin": "https://evil.example"})[0]
        assert status == 403, status
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        connection.request("POST", "/api/books", body="name=Evil", headers={"Cookie": "vocab_device=" + alice_cookie,
                                                                           "Content-Type": "application/x-www-form-urlencoded"})
        assert connection.getresponse().status == 403
        connection.close()
        assert all(book["name"] != "Evil" for book in server.request("GET", "/api/books", cookie=alice_cookie)[2])

        # An oversized body.
        status = server.request("POST", "/api/books", cookie=alice_cookie, raw=b"x" * (2 << 20),
                                headers={"Content-Type": "application/json"})[0]
        assert status == 413, status

        # A slow client: half a request, then nothing. Others are answered; it is closed in the end.
        slow = socket.create_connection(("127.0.0.1", server.port))
        slow.sendall(b"GET /api/books HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        assert server.request("GET", "/api/books", cookie=alice_cookie)[0] == 200
        slow.settimeout(60)  # the server's idle bound is 15 s: a socket.timeout here fails the test
        try:
            data = slow.recv(1024)
            assert data == b"" or data.startswith(b"HTTP/1.1 4"), data  # closed, or refused as incomplete
        except ConnectionResetError:
            pass
        slow.close()

        # 50 wrong passwords for alice from one address: after 5, that address waits for alice's
        # account — even with the right password — while alice, from an address that has not
        # failed, gets in at once (and is known there from now).
        def sign_in_from(address, password, user=alice):
            return server.request("POST", "/api/signin", {"user": user, "password": password}, headers={"X-Forwarded-For": address})
        statuses = [sign_in_from("10.6.6.6", f"guess{n}") for n in range(50)]
        assert [s[0] for s in statuses[:5]] == [403] * 5, [s[0] for s in statuses[:5]]
        assert all(s[0] == 429 for s in statuses[6:]), [s[0] for s in statuses]
        assert int(statuses[-1][1]["Retry-After"]) > 0 and "try again in" in statuses[-1][2]["error"]
        assert sign_in_from("10.6.6.6", alice_password)[0] == 429, "the guessing address waits"
        assert sign_in_from("10.0.0.9", alice_password)[0] == 200, "the owner, from an address that has not failed"
        assert server.request("GET", "/api/books", cookie=alice_cookie)[0] == 200, "a device signed in before goes on"
        server.sign_in(bob, bob_password, address="10.0.0.6")  # another learner, even from the guessing address's neighbour
        # Guessing from many addresses: strangers' failures count together (10.6.6.6's five
        # among them); past the account's ceiling of 20, every stranger waits, even from an
        # address that never guessed — and the owner, from where she signed in before, gets in.
        spread = [sign_in_from(f"10.7.0.{n}", f"spread{n}")[0] for n in range(1, 31)]
        assert spread == [403] * 15 + [429] * 15, spread
        assert sign_in_from("10.7.1.1", "fresh")[0] == 429, "a fresh address waits too: guessing stops"
        assert sign_in_from("10.0.0.9", alice_password)[0] == 200, "never the owner, from where she signed in before"

        # A device signed out from the page, then everywhere.
        page_cookie = server.sign_in(carol, carol_password, address="10.0.0.3")
        other_cookie = server.sign_in(carol, carol_password, address="10.0.0.3")
        other_role = other_cookie.split(".")[0]
        # The devices' route, with the page's cookie: a cross-site write is refused there too.
        status = server.request("DELETE", f"/api/v1/devices/{other_role}", cookie=page_cookie, headers={"Origin": "https://evil.example"})[0]
        assert status == 403, status
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        connection.request("DELETE", f"/api/v1/devices/{other_role}", headers={"Cookie": "vocab_device=" + page_cookie})
        assert connection.getresponse().status == 403, "a write with the cookie and without the page's header"
        connection.close()
        assert server.request("GET", "/api/books", cookie=other_cookie)[0] == 200, "still signed in"
        status, _, answer = server.request("DELETE", f"/api/v1/devices/{other_role}", cookie=page_cookie)
        assert status == 200, (status, answer)
        assert server.request("GET", "/api/books", cookie=other_cookie)[0] == 401
        third_cookie = server.sign_in(carol, carol_password, address="10.0.0.3")
        assert server.request("POST", "/api/v1/signout", {"everywhere": True}, cookie=page_cookie)[0] == 200
        assert server.request("GET", "/api/books", cookie=third_cookie)[0] == 401
        assert server.request("GET", "/api/books", cookie=page_cookie)[0] == 401

        # The administrator signs every device of carol's out: the page's write is refused at
        # once (a write always asks the cloud), its reads once the server asks the cloud again
        # (it answers a device's reads from its last word with the cloud for half a second).
        fourth_cookie = server.sign_in(carol, carol_password, address="10.0.0.3")
        fifth_cookie = server.sign_in(carol, carol_password, address="10.0.0.3")
        assert server.request("GET", "/api/books", cookie=fourth_cookie)[0] == 200
        assert server.request("GET", "/api/books", cookie=fifth_cookie)[0] == 200
        subprocess.run([BINARY, "cloud", "revoke", carol, "--admin", ADMIN_URL], env=cloud.admin_env, check=True, capture_output=True)
        assert server.request("POST", "/api/books", {"name": "After"}, cookie=fifth_cookie)[0] == 401
        # Its reads are refused once the server asks the cloud again (waited for, not timed).
        refused = False
        for _ in range(100):
            if server.request("GET", "/api/books", cookie=fourth_cookie)[0] == 401:
                refused = True
                break
            time.sleep(0.1)
        assert refused, "the revoked page's reads are refused"

        # Nothing secret in the cache the server keeps.
        for folder, _, files in os.walk(server.home):
            for name in files:
                if name == "output.txt":
                    continue
                with open(os.path.join(folder, name), "rb") as handle:
                    content = handle.read()
                assert secret.encode() not in content and alice_password.encode() not in content, name
    finally:
        output = server.stop()
        for text in (alice_password, bob_password, carol_password, secret):
            assert text not in output, "a secret in the server's output"


def test_the_same_contract_as_the_server_of_one_learner(cloud, driver):
    """The routes, the session, the meta and the refusals of a learner's mistakes are the one
    learner's server's: 422 worded in the page's language, with the field it concerns."""
    alice, alice_password = cloud.add_user("alice")
    server = CloudServer(cloud)
    try:
        status, _, answer = server.request("GET", "/api/session")
        assert (status, answer) == (200, {"mode": "cloud", "signedIn": False, "signIn": "account", "account": None}), (status, answer)
        cookie = server.sign_in(alice, alice_password)
        status, _, answer = server.request("GET", "/api/session", cookie=cookie)
        assert (status, answer) == (200, {"mode": "cloud", "signedIn": True, "signIn": None, "account": alice}), (status, answer)
        status, _, meta = server.request("GET", "/api/meta")
        assert status == 200 and meta["ratings"] == ["again", "hard", "good", "easy"] and meta["reviewsPerRequest"] == 1000, meta
        korean = {"X-Vocab-Language": "ko"}
        status, _, book = server.request("POST", "/api/books", {"name": "TOEIC"}, cookie=cookie)
        assert status == 201, (status, book)
        status, _, answer = server.request("POST", "/api/books", {"name": "TOEIC"}, cookie=cookie, headers=korean)
        assert status == 422 and re.search("[가-힣]", answer["error"]), (status, answer)
        status, _, answer = server.request("POST", "/api/words", {"bookId": book["id"], "word": "  "}, cookie=cookie, headers=korean)
        assert status == 422 and answer.get("field") == "word" and re.search("[가-힣]", answer["error"]), (status, answer)
        status, _, answer = server.request("POST", "/api/words", {"bookId": book["id"], "word": "  "}, cookie=cookie)
        assert status == 422 and not re.search("[가-힣]", answer["error"]), (status, answer)
        assert server.request("PATCH", "/api/books", {}, cookie=cookie)[0] == 405
        assert server.request("GET", "/api/nothing", cookie=cookie)[0] == 404
        assert server.request("GET", "/favicon.ico")[0] == 200
        status, _, books = server.request("GET", "/api/books", cookie=cookie)
        assert [b["name"] for b in books] == ["TOEIC"] and books[0]["wordCount"] == 0, books
        # Progress: the same report, from the learner's own store; the same refusals.
        status, _, progress = server.request("GET", f"/api/progress?book={book['id']}&days=30", cookie=cookie)
        assert status == 200 and progress["days"] == 30 and [b["name"] for b in progress["books"]] == ["TOEIC"], (status, progress)
        assert server.request("GET", "/api/progress?days=0", cookie=cookie)[0] == 422
        assert server.request("GET", "/api/progress")[0] == 401
    finally:
        server.stop()


def test_a_class_follows_the_teachers_book_from_a_link_on_the_phone(cloud, driver):
    """Shared books (issue 41): the teacher shares from the terminal; a student opens the link on
    the phone, signs in, and the book is there — read-only, studied, kept for offline study; the
    teacher's correction reaches the open phone within seconds; the student's progress reaches his
    desktop with the book; a follower's writes into the book are refused; stopping the share
    leaves the student his copy."""
    teacher, teacher_password = cloud.add_user("teacher")
    student, student_password = cloud.add_user("student")
    server = CloudServer(cloud)
    try:
        desk = Desktop(cloud, server, teacher, teacher_password)
        desk.vocab("book", "add", "TOEIC")
        desk.vocab("word", "add", "abandon", "--book", "TOEIC", "--definition", "to leave")
        desk.vocab("word", "add", "comply", "--book", "TOEIC", "--definition", "to obey")
        desk.vocab("book", "add", "Diary")
        desk.vocab("word", "add", "secret", "--book", "Diary")
        link = json.loads(desk.vocab("share", "TOEIC", "--catalog", "Ms. Kim", "--json"))["link"]
        assert link.startswith(server.url.rstrip("/") + "/#follow="), link

        driver.get(link)  # the link a teacher hands the class
        sign_in_in_the_browser_here(driver, student, student_password)
        # Nothing is followed unasked: the link opens a question naming the book, who shares it and its size.
        text_in(driver, "follow-ask-book", "TOEIC", timeout=15)
        # The name the owner chose, with her account's mark no stranger can copy (# and six characters).
        text_in(driver, "follow-ask-detail", "by Ms. Kim #")
        assert re.search(r"by Ms\. Kim #[0-9A-F]{6} · 2 words · 0 followers", driver.find_element(By.ID, "follow-ask-detail").text)
        assert "TOEIC" not in driver.find_element(By.ID, "shelf").text, "not followed before the learner says so"
        assert visible(driver, "follow-ask-no").is_displayed()
        shoot(driver, "shared-follow-ask")
        visible(driver, "follow-ask-yes").click()
        text_in(driver, "shelf", "TOEIC", timeout=15)
        assert not driver.find_element(By.ID, "follow-ask").is_displayed()
        text_in(driver, "shelf", "Shared")
        assert "Diary" not in visible(driver, "shelf").text
        shoot(driver, "shared-shelf")
        # The catalogue finds it under the name its owner chose, with its words and followers.
        driver.find_element(By.CSS_SELECTOR, "#catalog summary").click()
        visible(driver, "catalog-query").send_keys("toe")
        driver.find_element(By.CSS_SELECTOR, "#catalog-form button").click()
        text_in(driver, "catalog-list", "by Ms. Kim #")
        assert re.search(r"by Ms\. Kim #[0-9A-F]{6} · 2 words · 1 follower", driver.find_element(By.ID, "catalog-list").text)
        shoot(driver, "shared-catalogue")
        open_book(driver, "TOEIC")
        text_in(driver, "word-list", "abandon")
        assert visible(driver, "book-unfollow").is_displayed()
        assert not driver.find_element(By.ID, "word-new").is_displayed() and not driver.find_element(By.ID, "book-edit").is_displayed()
        shoot(driver, "shared-book")
        # A word of it opens to be read: its fields cannot be typed into, and there is nothing to save.
        tap(driver, "//ul[@id='word-list']//button[contains(., 'abandon')]")
        assert visible(driver, "word-definition").get_attribute("readonly") is not None
        assert not driver.find_element(By.ID, "done").is_displayed() and not driver.find_element(By.ID, "word-delete").is_displayed()
        study_one_card(driver)

        # The phone keeps it for offline study like any other book: with no network at all, the
        # other card comes from the phone, its grade waits there and arrives once when back.
        cookie = server.sign_in(student, student_password)
        queue = server.request("GET", "/api/study/queue", cookie=cookie)[2]
        assert len(queue["cards"]) == 1 and queue["cards"][0]["word"] in ("abandon", "comply"), queue
        wait(driver, lambda d: d.execute_script("return !!localStorage.getItem('vocab.queue')"))
        driver.execute_cdp_cmd("Network.enable", {})
        driver.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
        try:
            driver.refresh()  # the page comes from the phone, the cards from its queue
            driver.find_element(By.XPATH, "//nav//button[@data-page='study']").click()
            assert visible(driver, "card-word").text == queue["cards"][0]["word"]
            visible(driver, "show").click()
            visible(driver, "ratings").find_element(By.XPATH, "./button[@data-rating='good']").click()
            visible(driver, "offline")
            wait(driver, lambda d: waiting_on_phone(d) == 1)
            shoot(driver, "shared-offline")
            assert len(server.request("GET", "/api/study/queue", cookie=cookie)[2]["cards"]) == 1, "nothing reached the server yet"
        finally:
            driver.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
        driver.refresh()  # the page is shown again, online: what waits is sent
        sent_and_stays(driver, lambda: len(server.request("GET", "/api/study/queue", cookie=cookie)[2]["cards"]), 0, "the grade arrived once")
        books = server.request("GET", "/api/books", cookie=cookie)[2]
        shared = next(book for book in books if book["name"] == "TOEIC")
        assert re.fullmatch(r"Ms\. Kim #[0-9A-F]{6}", shared["sharedBy"]), shared
        words = server.request("GET", f"/api/books/{shared['id']}/words", cookie=cookie)[2]["words"]
        # A follower's writes into the book are refused (422, the book is its owner's) and change nothing.
        for method, path, body in (("POST", "/api/words", {"bookId": shared["id"], "word": "forged"}),
                                   ("PUT", f"/api/words/{words[0]['id']}", {"definition": "forged"}),
                                   ("DELETE", f"/api/words/{words[0]['id']}", None), ("PUT", f"/api/books/{shared['id']}", {"name": "Mine"}),
                                   ("DELETE", f"/api/books/{shared['id']}", None)):
            status, _, answer = server.request(method, path, body, cookie=cookie)
            assert status == 422 and "shared book" in answer["error"], (method, path, status, answer)
        # Sharing from the phone: not the followed book (its owner's to share), but one of his own.
        status, _, answer = server.request("POST", f"/api/books/{shared['id']}/share", {}, cookie=cookie)
        assert status == 422 and "shared book" in answer["error"], (status, answer)
        own = server.request("POST", "/api/books", {"name": "Mine to share"}, cookie=cookie)[2]
        status, _, answer = server.request("POST", f"/api/books/{own['id']}/share", {}, cookie=cookie)
        assert status == 200 and answer["link"].endswith("#follow=" + answer["code"]) and answer["followers"] == 0, (status, answer)
        assert server.request("DELETE", f"/api/v1/shares/{own['id']}", cookie=cookie)[0] == 200

        # The teacher's correction reaches the open phone within seconds, without a tap.
        driver.find_element(By.XPATH, "//nav//button[@data-page='books']").click()
        open_book(driver, "TOEIC")
        desk.vocab("word", "edit", "comply", "--definition", "to act as told")
        desk.vocab("sync")
        text_in(driver, "word-list", "to act as told", timeout=30)

        # The student's desktop gets the book, and the card studied on the phone.
        home = Desktop(cloud, server, student, student_password)
        home.vocab("sync")
        listed = json.loads(home.vocab("word", "list", "--book", "TOEIC", "--json"))
        assert sorted(w["word"] for w in listed) == ["abandon", "comply"], listed
        studied = [w for w in listed if (json.loads(home.vocab("word", "show", w["word"], "--json")).get("schedule") or {}).get("reviews")]
        assert len(studied) == 2, listed
        assert "Diary" not in home.vocab("book", "list")

        # Stopping the share: the phone keeps its copy, now the student's own to change.
        desk.vocab("share", "TOEIC", "--stop")
        home.vocab("sync")
        home.vocab("word", "add", "mine", "--book", "TOEIC")
        home.vocab("sync")
        driver.find_element(By.XPATH, "//nav//button[@data-page='books']").click()
        open_book(driver, "TOEIC")
        text_in(driver, "word-list", "mine", timeout=30)
        # Forgetting that the copy was shared: once; a second time it is no book he follows.
        status, _, answer = server.request("DELETE", f"/api/books/{shared['id']}/follow", cookie=cookie)
        assert status == 200, (status, answer)
        status, _, answer = server.request("DELETE", f"/api/books/{shared['id']}/follow", cookie=cookie)
        assert status == 404 and "not a book you follow" in answer["error"], (status, answer)
    finally:
        server.stop()


def anki(server, folder, *steps, user="", password=""):
    """Anki's own sync client (Tests/Anki/sync_client.py, this Python's `anki`) against `server`;
    returns each step's JSON line, and fails on the first step that failed."""
    client = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Anki", "sync_client.py")
    run = subprocess.run([sys.executable, client, "--endpoint", server.url + "anki/", "--collection", folder + "/collection.anki2",
                          "--user", user, "--password", password, "--auth", folder + "/auth.json", *steps],
                         capture_output=True, text=True, timeout=120)
    lines = [json.loads(line) for line in run.stdout.splitlines() if line.startswith("{")]
    assert run.returncode == 0, (lines, run.stderr[-2000:])
    return lines


def test_the_words_an_anki_upload_deleted_come_back_from_the_account_page(cloud, driver):
    """Issue 70: an Anki app's whole collection that lacks a word of the account deletes it, and
    the cloud keeps it first; on the phone's Account page the learner sees the backup and brings
    the word back with its review, and it is on his shelf and his desktop again. Another learner
    sees no backup and cannot bring this one back."""
    alice, alice_password = cloud.add_user("alice")
    bob, bob_password = cloud.add_user("bob")
    server = CloudServer(cloud)
    try:
        desk = Desktop(cloud, server, alice, alice_password)
        desk.vocab("book", "add", "Travel")
        desk.vocab("word", "add", "apple", "--book", "Travel", "--definition", "사과")
        desk.vocab("word", "add", "pear", "--book", "Travel", "--definition", "배")
        desk.vocab("sync")
        app = tempfile.mkdtemp(prefix="anki-", dir=cloud.home)
        anki(server, app, "login", "sync", "download", "answer:apple:3", "sync", user=alice, password=alice_password)
        anki(server, app, "remove:apple", "upload")
        desk.vocab("sync")
        assert [w["word"] for w in json.loads(desk.vocab("word", "list", "--json"))] == ["pear"], "deleted, before anything comes back"

        sign_in_in_the_browser(driver, server, alice, alice_password)
        driver.find_element(By.XPATH, "//nav//button[@data-page='account']").click()
        text_in(driver, "backup-list", "Words deleted: 1", timeout=15)
        shoot(driver, "account-backups")
        tap(driver, "//ul[@id='backup-list']//button[contains(@class, 'restore')]")
        text_in(driver, "toast", "Brought back: words 1, reviews 1.", timeout=15)
        driver.find_element(By.XPATH, "//nav//button[@data-page='books']").click()
        open_book(driver, "Travel")
        text_in(driver, "word-list", "apple", timeout=15)
        desk.vocab("sync")
        assert sorted(w["word"] for w in json.loads(desk.vocab("word", "list", "--json"))) == ["apple", "pear"]
        assert json.loads(desk.vocab("stats", "--json"))["reviews"] == 1, "with its review"

        backup = server.request("GET", "/api/v1/backups", cookie=server.sign_in(alice, alice_password))[2][0]["id"]
        bob_cookie = server.sign_in(bob, bob_password)
        status, _, answer = server.request("GET", "/api/v1/backups", cookie=bob_cookie)
        assert (status, answer) == (200, []), (status, answer)
        status, _, answer = server.request("POST", f"/api/v1/backups/{backup}/restore", cookie=bob_cookie,
                                           headers={"Origin": server.url.rstrip("/")})
        assert status == 404 and "no backup of that id" in answer["error"], (status, answer)
        status, _, answer = server.request("GET", "/api/v1/catalog", cookie=bob_cookie)
        assert status == 200, "bob's page goes on"
    finally:
        server.stop()


def sign_in_in_the_browser_here(driver, user, password):
    """Signs in on the page as it is (opened from a link)."""
    visible(driver, "signin-user").send_keys(user)
    driver.find_element(By.ID, "signin-password").send_keys(password)
    driver.find_element(By.ID, "signin").click()
    visible(driver, "book-name")


def main():
    tests = [test_two_learners_on_their_phones_find_their_words_on_their_desktops, test_the_security_list,
             test_the_same_contract_as_the_server_of_one_learner, test_a_class_follows_the_teachers_book_from_a_link_on_the_phone,
             test_the_words_an_anki_upload_deleted_come_back_from_the_account_page]
    cloud = Cloud()
    try:
        run_tests("Cloud web", tests, lambda: cloud, lambda _: None)
    finally:
        cloud.stop()


if __name__ == "__main__":
    main()

"""Writes a screenshot of each screen of vocab-desktop into docs/screenshots/, in the language
of LANG (run by scripts/screenshots.sh once in English and once in Korean)."""
import os
import subprocess
import sys
import time

from atspi_driver import application, click, find, find_all, type_into, vocab, wait_for

import pyatspi

DESKTOP, TERMINAL, OUT, LANGUAGE = sys.argv[1:5]
env = dict(os.environ)
names = {  # accessible names, in the window's language
    "en": {"open": "Open book TOEIC", "add": "Add word", "word": "Word", "dictionary": "Dictionary", "filled": "Filled from",
           "cancel": "Cancel", "test": "Test", "start": "Start game", "study": "Study", "show": "Show answer", "books": "Books",
           "next": "Next question", "login": "Log in", "phone": "Phone", "close": "Close", "progress": "Progress",
           "due": "Due ahead"},
    "ko": {"open": "단어장 TOEIC 열기", "add": "단어 추가", "word": "단어", "dictionary": "사전", "filled": "사전에서 채웠습니다",
           "cancel": "취소", "test": "테스트", "start": "게임 시작", "study": "공부", "show": "정답 보기", "books": "단어장",
           "next": "다음 문제", "login": "로그인", "phone": "휴대폰", "close": "닫기", "progress": "진도",
           "due": "다가오는 복습"},
}[LANGUAGE]


def shoot(name):
    time.sleep(0.6)
    path = os.path.join(OUT, f"{LANGUAGE}-{name}.png")
    subprocess.run(["import", "-window", "root", "-crop", "1000x720+0+0", path], check=True)
    print("wrote", path, flush=True)


def page(app, name):
    tab = find(app, "page tab", name)
    click(tab)
    wait_for(name, lambda: tab.getState().contains(pyatspi.STATE_SELECTED))


process = subprocess.Popen([DESKTOP], env=env)
serving = None
try:
    app = application("vocab-desktop")
    shoot("shelf")
    click(find(app, "push button", names["open"]))
    find(app, "label", "abandon")
    shoot("word-list")
    click(find(app, "push button", names["add"]))
    type_into(find(app, "text", names["word"]), "sharp")
    click(find(app, "push button", names["dictionary"]))
    find(app, "label", prefix=names["filled"], timeout=15)
    shoot("word-editor")
    click(find(app, "push button", names["cancel"]))
    wait_for("the editor to close", lambda: not find_all(app, "dialog"))
    page(app, names["test"])
    click(find(app, "push button", names["start"]))
    click(find(app, "push button", prefix="2. "))
    shoot("game")
    page(app, names["study"])
    click(find(app, "push button", names["show"]))
    shoot("study")
    page(app, names["progress"])
    find(app, "label", prefix=names["due"])
    time.sleep(0.5)
    shoot("progress")
    serving = subprocess.Popen([TERMINAL, "serve", "--listen", "127.0.0.1:0"], env=env, stdout=subprocess.PIPE, text=True)
    while not serving.stdout.readline().startswith("Serving"):
        pass
    click(find(app, "push button", names["phone"]))
    find(app, "label", prefix="http://127.0.0.1:")
    shoot("phone")
    click(find(app, "push button", names["close"]))
    click(find(app, "push button", names["login"]))
    shoot("login")
finally:
    if serving:
        serving.terminate()
        serving.wait(10)
    process.terminate()
    process.wait(10)

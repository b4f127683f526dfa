"""Drives a running GTK window the way a person (or a screen reader) would: finds controls by
their role and accessible name in the AT-SPI tree, clicks them, types into entries. Only
Debian's /usr/bin/python3 sees pyatspi."""
import subprocess
import time

import pyatspi


class Timeout(AssertionError):
    pass


def wait_for(what, probe, timeout=10.0, interval=0.1):
    """Calls probe() until it returns something truthy; fails after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        try:
            last = probe()
            if last:
                return last
        except Exception as error:  # the tree changes under us while GTK rebuilds it
            last = error
        time.sleep(interval)
    raise Timeout(f"timed out waiting for {what} (last: {last!r})")


def application(name, timeout=20.0):
    def probe():
        desktop = pyatspi.Registry.getDesktop(0)
        for index in range(desktop.childCount):
            app = desktop.getChildAtIndex(index)
            if app is not None and app.name == name:
                return app
        return None
    return wait_for(f"application {name}", probe, timeout)


def walk(node, depth=0):
    if node is None or depth > 60:
        return
    yield node
    try:
        count = node.childCount
    except Exception:
        return
    for index in range(count):
        try:
            child = node.getChildAtIndex(index)
        except Exception:
            continue
        yield from walk(child, depth + 1)


def showing(node):
    """GTK 4.8 reports no SHOWING state, but hidden widgets are not VISIBLE: a node shows when
    it and every ancestor are (a page the window hid hides its widgets)."""
    try:
        while node is not None and node.getRoleName() != "application":
            if not node.getState().contains(pyatspi.STATE_VISIBLE):
                return False
            node = node.parent
        return True
    except Exception:
        return False


def find_all(root, role=None, name=None, prefix=None, contains=None):
    found = []
    for node in walk(root):
        try:
            if role is not None and node.getRoleName() != role:
                continue
            label = node.name or ""
        except Exception:
            continue
        if name is not None and label != name:
            continue
        if prefix is not None and not label.startswith(prefix):
            continue
        if contains is not None and contains not in label:
            continue
        if showing(node):
            found.append(node)
    return found


def find(root, role=None, name=None, prefix=None, contains=None, timeout=10.0):
    what = f"{role or 'any'} named {name or prefix or contains!r}"
    return wait_for(what, lambda: (find_all(root, role, name, prefix, contains) or [None])[0], timeout)


def gone(root, role=None, name=None, prefix=None, contains=None, timeout=10.0):
    what = f"{role or 'any'} named {name or prefix or contains!r} to go"
    wait_for(what, lambda: not find_all(root, role, name, prefix, contains), timeout)


def window_titled(root, title, timeout=10.0):
    """A window or dialog (in-window sheets are dialogs too) with this title."""
    def probe():
        for node in find_all(root, None, title):
            if node.getRoleName() in ("frame", "dialog", "alert"):
                return node
        return None
    return wait_for(f"window {title!r}", probe, timeout)


def click(node):
    action = node.queryAction()
    for index in range(action.nActions):
        if action.getName(index) in ("click", "press", "activate"):
            action.doAction(index)
            return
    action.doAction(0)


def click_found(root, role=None, name=None, prefix=None, contains=None, timeout=10.0):
    """Finds a control and clicks it, finding it again when the one found was replaced before
    the click reached it (a list drawn again drops its old rows from the tree)."""
    def probe():
        node = (find_all(root, role, name, prefix, contains) or [None])[0]
        if node is None:
            return False
        click(node)
        return True
    wait_for(f"{role or 'any'} named {name or prefix or contains!r} to click", probe, timeout)


def type_into(node, text):
    node.queryEditableText().setTextContents(text)


def vocab(binary, environment, *arguments, input_text=""):
    """Runs the terminal app on the same store; returns stdout, failing on a non-zero exit."""
    done = subprocess.run([binary, *arguments], env=environment, input=input_text, capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        raise AssertionError(f"vocab {' '.join(arguments)} exited {done.returncode}: {done.stderr}")
    return done.stdout

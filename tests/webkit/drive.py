"""Driving Streamlit pages in WebKitGTK through Selenium: explicit waits, taps, text.

Streamlit replaces elements on every rerun, so every helper finds its element again until it can
act on it (a stale reference is retried, never slept over). `st.components.v2` components with
styles of their own (the cards) live in shadow roots: `deep()` finds elements through them.
"""

from __future__ import annotations

import re

from selenium.common.exceptions import (
    ElementClickInterceptedException,
    ElementNotInteractableException,
    JavascriptException,
    MoveTargetOutOfBoundsException,
    NoSuchElementException,
    StaleElementReferenceException,
    TimeoutException,
)
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.support.ui import WebDriverWait

WAIT = 25  # seconds; a fresh server's first pages on a busy 2-core machine
RETRIED = (
    StaleElementReferenceException,
    NoSuchElementException,
    ElementNotInteractableException,
    ElementClickInterceptedException,
    MoveTargetOutOfBoundsException,
    JavascriptException,
)

# Every element matching a CSS selector, in the document and in every open shadow root under it.
DEEP = """
const [sel] = arguments, found = [];
const walk = (root) => {
  found.push(...root.querySelectorAll(sel));
  for (const el of root.querySelectorAll('*')) if (el.shadowRoot) walk(el.shadowRoot);
};
walk(document);
return found;
"""
VISIBLE = "const r = arguments[0].getBoundingClientRect(); return r.width > 0 && r.height > 0;"


def until(driver, condition, message: str, timeout: float = WAIT):
    """condition(driver) -> something truthy, retried on stale or missing elements."""
    return WebDriverWait(driver, timeout, poll_frequency=0.1, ignored_exceptions=RETRIED).until(condition, message)


def deep(driver, css: str) -> list:
    return driver.execute_script(DEEP, css)


def visible(driver, element) -> bool:
    return bool(driver.execute_script(VISIBLE, element))


def body_text(driver) -> str:
    return driver.execute_script("return document.body.innerText")


def showing(text: str):
    """A condition: the page's visible text contains `text`."""
    return lambda d: text in body_text(d)


def shows(driver, text: str, timeout: float = WAIT) -> None:
    """Wait until the page's visible text contains `text`."""
    until(driver, lambda d: text in body_text(d), f"{text!r} never showed on {driver.current_url}", timeout)


def find(driver, css: str, text: str | re.Pattern | None = None, timeout: float = WAIT):
    """The first visible element matching `css` (through shadow roots) whose text is `text`
    (stripped; a pattern is searched)."""

    def match(d):
        for el in deep(d, css):
            if not visible(d, el):
                continue
            if text is None:
                return el
            shown = (el.get_attribute("innerText") or el.text or "").strip()
            if text.search(shown) if isinstance(text, re.Pattern) else shown == text:
                return el
        return None

    return until(driver, match, f"no {css} {text or ''!s} on {driver.current_url}", timeout)


def button(driver, text: str | re.Pattern, timeout: float = WAIT):
    return find(driver, "button", text, timeout)


def field(driver, label: str, timeout: float = WAIT):
    """A text input or text area by the start of its label (Streamlit gives it as aria-label)."""
    return find(driver, f"input[aria-label^='{label}'], textarea[aria-label^='{label}']", None, timeout)


def tap(driver, element) -> None:
    """A tap on the element's centre with WebDriver's touch pointer. WebKitGTK, with no touch screen
    under Xvfb, delivers it as pointer and mouse events (pointerType "mouse"), not as touch events."""
    driver.execute_script("arguments[0].scrollIntoView({block: 'center', inline: 'center'})", element)
    actions = ActionBuilder(driver, mouse=PointerInput(interaction.POINTER_TOUCH, "finger"))
    actions.pointer_action.move_to(element).pointer_down().pointer_up()
    actions.perform()


def holds(driver, condition) -> bool:
    try:
        return bool(condition(driver))
    except RETRIED:
        return False


def tap_until(driver, get, done, message: str, tries: int = 3, timeout: float = WAIT) -> None:
    """Tap what `get(driver)` finds until `done(driver)` holds. A tap that lands while a rerun
    replaces the element (a page just loaded, a push arriving) is lost, as it would be under a
    finger, and the player taps again; never once `done` holds."""
    for _ in range(tries):
        if holds(driver, done):
            return
        try:
            tap(driver, get(driver))
            until(driver, done, message, timeout / tries)
            return
        except (*RETRIED, TimeoutException):
            continue
    until(driver, done, message, timeout)


def type_into(driver, label: str, text: str) -> None:
    """Tap a text field and type into it; Streamlit takes the value when the field is left or Enter
    is pressed."""

    def typed(d):
        box = field(d, label)
        tap(d, box)
        box.clear()
        box.send_keys(text)
        return box.get_attribute("value") == text

    until(driver, typed, f"could not type into {label!r}")


def rendered(driver, code: str, version: int, timeout: float = WAIT) -> None:
    """Wait until the page shows the room at `version` or later: its push listener is mounted last
    in the room's fragment, so its `rendered` is the fragment's."""
    until(
        driver,
        lambda d: d.execute_script(
            "const r = (window.__sobremesaPushRooms || {})[arguments[0]]; return !!r && r.rendered >= arguments[1];",
            code,
            version,
        ),
        f"{driver.current_url} never rendered version {version}",
        timeout,
    )

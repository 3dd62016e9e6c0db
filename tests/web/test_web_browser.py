"""The pages in a real browser: headless Chromium (Debian ``chromium`` and
``chromium-driver``, which .ci/run installs) driven by Selenium.

A reader opens a rule page of the real KB, follows a reference link and lands on
the cited rule; hostile markup in rule text never runs; the pages work without
JavaScript errors. A screenshot of the rule page is written for the record.
The ``browser`` fixture is in conftest.py.
"""

from __future__ import annotations

import os
from pathlib import Path

SCREENSHOTS = Path(os.environ.get("RULEKB_SCREENSHOTS", Path(__file__).parents[2] / ".screenshots"))


def _severe_errors(driver) -> list[str]:
    return [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def _and_wait_for_the_next_page(driver, action) -> None:
    """``action()`` (a click, a submit), then wait until the browser has left the page it was on
    and loaded the next: an element found at once may still be the old page's, gone stale a
    moment later (a StaleElementReferenceException seen in CI)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions
    from selenium.webdriver.support.ui import WebDriverWait

    old = driver.find_element(By.TAG_NAME, "html")
    action()
    wait = WebDriverWait(driver, 30)
    wait.until(expected_conditions.staleness_of(old))
    wait.until(lambda d: d.execute_script("return document.readyState") == "complete")


def test_a_reader_follows_a_reference_to_the_cited_rule(browser, corpus_web):
    from selenium.webdriver.common.by import By

    start = corpus_web + "edition/en/2026-01-16/rule/601.2b"  # its text cites 700.2, 702.47, 118.8 ...
    browser.get(start)
    assert "601.2b" in browser.find_element(By.TAG_NAME, "h1").text
    links = browser.find_elements(By.CSS_SELECTOR, "p.rule-text a[href*='/edition/en/2026-01-16/rule/']")
    assert links, "the rule text links none of the rules it cites"
    SCREENSHOTS.mkdir(exist_ok=True)
    browser.save_screenshot(str(SCREENSHOTS / "rule-601.2b.png"))
    target = links[0]
    cited = target.get_attribute("href").rsplit("/", 1)[1]
    assert target.text.strip().startswith(cited[:3])
    _and_wait_for_the_next_page(browser, target.click)
    assert browser.current_url.endswith(f"/edition/en/2026-01-16/rule/{cited}")
    assert cited in browser.find_element(By.TAG_NAME, "h1").text
    back = browser.find_elements(By.CSS_SELECTOR, "a[href$='/edition/en/2026-01-16/rule/601.2b']")
    assert back, f"{cited} does not list 601.2b among the rules citing it"
    assert _severe_errors(browser) == []


def test_hostile_markup_never_runs_in_the_browser(browser, hostile_web):
    from selenium.webdriver.common.by import By

    for number in ("100.1", "100.1a", "100.2", "100.3"):
        browser.get(hostile_web + f"edition/en/2031-01-01/rule/{number}")
        assert "pwned" not in browser.title
        assert browser.execute_script("return document.querySelectorAll('img[onerror], svg[onload]').length") == 0
        links = browser.find_elements(By.CSS_SELECTOR, "a[href^='javascript:']")
        assert links == []
    browser.get(hostile_web + "edition/en/2031-01-01/rule/100.1")
    assert '<script>document.title="pwned"</script>' in browser.find_element(By.TAG_NAME, "main").text


def test_the_home_page_lists_the_editions_and_searches(browser, corpus_web):
    from selenium.webdriver.common.by import By

    browser.get(corpus_web)
    text = browser.find_element(By.TAG_NAME, "main").text
    assert "2026-01-16" in text and "1999" in text
    box = browser.find_element(By.CSS_SELECTOR, "input[name='q']")
    box.send_keys("hexproof")
    _and_wait_for_the_next_page(browser, box.submit)
    assert "hexproof" in browser.find_element(By.TAG_NAME, "main").text.lower()
    assert _severe_errors(browser) == []

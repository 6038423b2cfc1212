"""What every page a browser test visits must pass: axe finds nothing, every control is a thumb's
size (44x44 CSS px), and nothing scrolls sideways."""
from __future__ import annotations

import itertools
import json
import pathlib

from axe_playwright_python.base import AxeResults

# axe-core from npm, pinned (tests/e2e/vendor/VENDORED.md): newer and quicker than the copy
# axe-playwright-python bundles, whose report we still use. A page keeps `window.axe` until it
# navigates, so the 650 KB script is put in once per document, and only the violations (all a check
# reads) come back: axe runs every rule with {"resultTypes": ["violations"]}.
AXE_SCRIPT = (pathlib.Path(__file__).resolve().parent / "vendor" / "axe.min.js").read_text()

TAP_TARGETS_JS = """
() => {
  const small = [];
  const sel = 'button, a, input:not([type=hidden]), select, textarea, summary, [role=button]';
  for (const el of document.querySelectorAll(sel)) {
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden' || style.display === 'none' || el.closest('[hidden], .vh, template')) continue;
    // A link inside a sentence is exempt (WCAG 2.5.8 "inline"); everything built to be tapped is not.
    if (el.tagName === 'A' && el.closest('p, li.prose, .prose, td, figcaption')) continue;
    let box = el.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    if ((el.type === 'checkbox' || el.type === 'radio') && el.labels && el.labels.length) {
      box = el.labels[0].getBoundingClientRect();
    }
    if (box.width < 44 - 0.5 || box.height < 44 - 0.5) {
      small.push(`${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''} "${(el.textContent || el.value || el.getAttribute('aria-label') || '').trim().slice(0, 40)}" ${Math.round(box.width)}x${Math.round(box.height)}`);
    }
  }
  return small;
}
"""


# Every check of a page state in one trip to the browser: axe (null when this document does not
# have it yet), the controls under 44 px, and how far the page scrolls sideways.
CHECKS_JS = """
(axe_wanted) => Promise.all([
  !axe_wanted ? Promise.resolve(false)
    : (typeof window.axe === 'object' && typeof window.axe.run === 'function')
      ? axe.run({resultTypes: ['violations']}).then(results => ({violations: results.violations}))
      : Promise.resolve(null),
  (%s)(),
  document.documentElement.scrollWidth - document.documentElement.clientWidth,
])
""" % TAP_TARGETS_JS.strip()


def check_page(page, *, axe: bool = True):
    """Run the checks on the page as it is now; fail with a readable report.

    A form whose request is still on its way is dimmed on purpose (its buttons can't be tapped
    twice): the checks wait for every answer first, so they judge the page a player looks at."""
    page.wait_for_function("() => !document.querySelector('.htmx-request')", timeout=10_000)
    found, small, overflow = page.evaluate(CHECKS_JS, axe)
    if found is None:  # a new document: put axe in, then run it
        page.evaluate(AXE_SCRIPT)
        found, small, overflow = page.evaluate(CHECKS_JS, axe)
    problems = []
    if axe:
        results = AxeResults(found)
        if results.violations_count:
            problems.append(results.generate_report())
    if small:
        problems.append("tap targets under 44x44 px: " + "; ".join(small))
    if overflow > 0:
        problems.append(f"the page scrolls sideways by {overflow}px")
    assert not problems, f"{page.url}:\n" + "\n".join(problems)


_asked = itertools.count()


def wait_until(page, predicate: str, arg=None, timeout: float = 15_000):
    """Wait until `predicate`, a JavaScript function of `arg` that answers with a promise (the Cache
    API's, say), resolves to something truthy. `page.wait_for_function` cannot wait for that: it
    takes the promise itself, an object and so truthy, as its answer and returns at once. Here each
    poll reads the last answer and, once it has come back false, asks again."""
    key = json.dumps(f"wait-{next(_asked)}")
    page.wait_for_function(f"""(arg) => {{
      const box = window.__waitUntil || (window.__waitUntil = {{}});
      if (box[{key}] === true) return true;
      if (box[{key}] !== "asking") {{
        box[{key}] = "asking";
        Promise.resolve(({predicate})(arg)).then((v) => {{ box[{key}] = !!v; }}, () => {{ box[{key}] = false; }});
      }}
      return false;
    }}""", arg=arg, timeout=timeout)


def wait_saved(page, *paths: str):
    """Until the service worker has these pages in its cache (any of its caches)."""
    for path in paths:
        wait_until(page, "(p) => caches.match(p)", path)


WHAT_SHOWS = """() => ({
  offlineCopy: document.documentElement.getAttribute("data-offline-copy"),
  version: document.getElementById("live") && document.getElementById("live").getAttribute("data-version"),
  status: [...document.querySelectorAll("[data-live-status]")].map((e) => e.textContent.trim()).join(" "),
  headings: [...document.querySelectorAll("h1, h2")].map((e) => e.textContent.trim()).slice(0, 6),
  buttons: [...document.querySelectorAll("button")].filter((b) => b.getClientRects().length)
    .map((b) => (b.disabled ? "(off) " : "") + (b.getAttribute("aria-label") || b.textContent.trim())).slice(0, 20),
  outbox: (() => { try { return localStorage.getItem("companion.outbox.v1"); } catch (err) { return null; } })(),
})"""


def what_shows(page) -> str:
    """What the page shows, for a failure's message: its address, whether it is the saved offline
    copy, the live region's version, the status line, the headings and the buttons on screen."""
    try:
        return f"{page.url} {json.dumps(page.evaluate(WHAT_SHOWS), ensure_ascii=False)}"
    except Exception as err:  # noqa: BLE001 - a message, never a second failure
        return f"{page.url} (could not read the page: {err})"


def visit(page, path: str):
    """Open a page and check it."""
    resp = page.goto(path)
    assert resp is not None and resp.ok, f"{path}: HTTP {resp.status if resp else '?'}"
    check_page(page)
    return resp


def fill_new_table(page, players, table_name: str | None = None):
    """On a game's new-table form: type the table's name and the players in seat order, then create
    it. Where the browser lands is the caller's to check."""
    if table_name:
        page.get_by_label("Table name").fill(table_name)
    for i, name in enumerate(players):
        page.get_by_label(f"Player {i + 1}", exact=False).first.fill(name)
    page.get_by_role("button", name="Create table").click()

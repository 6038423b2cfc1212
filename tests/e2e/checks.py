"""What every page a browser test visits must pass: axe finds nothing, every control is a thumb's
size (44x44 CSS px), and nothing scrolls sideways."""
from __future__ import annotations

from axe_playwright_python.base import AXE_SCRIPT, AxeResults

# axe-core, as packaged with axe-playwright-python. Its own `Axe.run` evaluates the whole 570 KB
# script again before every check and sends back every result type; a page keeps `window.axe` until
# it navigates, so it is put in once per document, and only the violations (all a check reads) come
# back. axe runs the same rules with the same options ({"resultTypes": ["violations"]}) either way.
AXE_LOADED = "() => typeof window.axe === 'object' && typeof window.axe.run === 'function'"
AXE_RUN = "() => axe.run({resultTypes: ['violations']}).then(results => ({violations: results.violations}))"


def axe_violations(page) -> AxeResults:
    if not page.evaluate(AXE_LOADED):
        page.evaluate(AXE_SCRIPT)
    return AxeResults(page.evaluate(AXE_RUN))

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


def check_page(page, *, axe: bool = True):
    """Run the checks on the page as it is now; fail with a readable report.

    A form whose request is still on its way is dimmed on purpose (its buttons can't be tapped
    twice): the checks wait for every answer first, so they judge the page a player looks at."""
    page.wait_for_function("() => !document.querySelector('.htmx-request')", timeout=10_000)
    problems = []
    if axe:
        results = axe_violations(page)
        if results.violations_count:
            problems.append(results.generate_report())
    small = page.evaluate(TAP_TARGETS_JS)
    if small:
        problems.append("tap targets under 44x44 px: " + "; ".join(small))
    overflow = page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
    if overflow > 0:
        problems.append(f"the page scrolls sideways by {overflow}px")
    assert not problems, f"{page.url}:\n" + "\n".join(problems)


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

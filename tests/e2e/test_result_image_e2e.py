"""The result as an image (issue 35) in a phone's browser: a finished 7 - The Sins table shows its
image and "Share the result"; one tap hands the PNG to the phone's share sheet where it has one
(Web Share with files), else saves it; with the network gone, the saved copy of the page still
shares the image saved with it. Runs at 390x844 and 360x640 with axe, 44 px tap targets and no
sideways scroll on every page visited."""
from __future__ import annotations

from playwright.sync_api import expect

from bench.tapjobs.history import finish_sins_by_totals
from tests.e2e.checks import check_page, fill_new_table, visit, wait_until

PLAYERS = ["Chiara", "Margherita", "Alberto", "Luca"]

# A phone with a share sheet: records what it was given (Chromium on Linux has none of its own).
SHARE_SHEET = """
navigator.canShare = (data) => !!(data && data.files && data.files.length);
navigator.share = (data) => {
  const f = data.files[0];
  window.__shared = {name: f.name, type: f.type, size: f.size, text: data.text || null};
  return Promise.resolve();
};
"""


def finished_table(page):
    visit(page, "/new/sins")
    fill_new_table(page, PLAYERS, "Friday")
    expect(page.get_by_role("heading", name="Setup checklist")).to_be_visible()
    finish_sins_by_totals(page, after_each=check_page)
    image = page.locator("img.result-image")
    expect(image).to_be_visible()
    page.wait_for_function("() => { const i = document.querySelector('img.result-image');"
                           " return i && i.complete && i.naturalWidth === 1080; }")
    check_page(page)


def test_share_the_result_hands_the_png_to_the_share_sheet(make_phone):
    phone = make_phone()
    phone.context.add_init_script(SHARE_SHEET)
    page = phone.page
    finished_table(page)
    page.get_by_role("button", name="Share the result").click()
    page.wait_for_function("() => window.__shared")
    shared = page.evaluate("() => window.__shared")
    assert shared["name"] == "result-sins.png" and shared["type"] == "image/png" and shared["size"] > 10_000
    # With the view-only link: a second image, larger by the link's lines.
    page.get_by_label("Add the table's view-only link to the image").check()
    page.evaluate("() => { window.__shared = null; }")
    page.get_by_role("button", name="Share the result").click()
    page.wait_for_function("() => window.__shared")
    assert page.evaluate("() => window.__shared.size") > shared["size"]


def test_without_a_share_sheet_the_image_is_saved(make_phone):
    phone = make_phone()
    page = phone.page
    finished_table(page)
    with page.expect_download() as download:
        page.get_by_role("button", name="Share the result").click()
    saved = download.value
    assert saved.suggested_filename == "result-sins.png"
    with open(saved.path(), "rb") as fh:
        assert fh.read(8) == b"\x89PNG\r\n\x1a\n"


def test_the_saved_copy_shares_the_image_offline(make_phone):
    phone = make_phone()
    phone.context.add_init_script(SHARE_SHEET)
    page = phone.page
    finished_table(page)
    page.wait_for_function("() => navigator.serviceWorker && navigator.serviceWorker.controller", timeout=15_000)
    page.reload()  # now through the service worker: the page and its image are kept
    wait_until(page, "() => caches.open('tables-v1').then(c => c.match(location.href))")
    wait_until(page, "() => caches.open('tables-v1')"
               ".then(c => c.match(document.querySelector('img.result-image').src))")
    phone.context.set_offline(True)
    page.reload()
    expect(page.locator("[data-offline-banner]")).to_contain_text("The copy saved on this phone")
    share = page.get_by_role("button", name="Share the result")
    expect(share).to_be_enabled()
    expect(page.get_by_role("button", name="Rematch")).to_be_disabled()
    share.click()
    page.wait_for_function("() => window.__shared")
    assert page.evaluate("() => window.__shared.type") == "image/png"
    check_page(page)
    phone.context.set_offline(False)

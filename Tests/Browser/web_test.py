#!/usr/bin/env python3
"""End-to-end tests of `stockroom serve` in headless Chromium (Debian's, never a downloaded one).

Starts the real binary on a fresh file with --port 0, drives the pages as a person would with
Playwright, and checks the results through the CLI on the same file. Each test saves a
screenshot under the build folder. Run by ServerBrowserTests (swift test), or by hand:

    STOCKROOM_BIN=.build/debug/stockroom .build/python/bin/python3 Tests/Browser/web_test.py

Prints one line per test and a closing 'N passed, N failed' line; exits 1 on any failure.
"""
import json
import os
import subprocess
import sys
import tempfile
import time
import traceback

from playwright.sync_api import sync_playwright, expect

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.environ.get("STOCKROOM_BIN", os.path.join(ROOT, ".build", "debug", "stockroom"))
SHOTS = os.environ.get("STOCKROOM_SCREENSHOTS", os.path.join(ROOT, ".build", "screenshots"))
CHROMIUM = os.environ.get("STOCKROOM_CHROMIUM", "/usr/bin/chromium")


class Server:
    """A `stockroom serve --port 0` on a fresh database file, and the CLI on the same file."""

    def __init__(self):
        self.folder = tempfile.TemporaryDirectory(prefix="stockroom-browser-")
        self.db = os.path.join(self.folder.name, "inventory.sqlite")
        self.process = subprocess.Popen([BIN, "serve", "--db", self.db, "--port", "0"],
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.url = self.process.stdout.readline().strip()
        assert self.url.startswith("http://127.0.0.1:"), f"no URL printed: {self.url!r}"

    def cli(self, *arguments):
        result = subprocess.run([BIN, "--db", self.db, *arguments], capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, f"stockroom {' '.join(arguments)}: {result.returncode} {result.stderr}"
        return result.stdout

    def stop(self):
        self.process.terminate()
        _, errors = self.process.communicate(timeout=60)
        assert self.process.returncode == 0, f"serve exited {self.process.returncode}: {errors}"
        self.folder.cleanup()


def shot(page, name):
    os.makedirs(SHOTS, exist_ok=True)
    page.screenshot(path=os.path.join(SHOTS, name + ".png"), full_page=True)


def names_listed(page):
    return page.locator("#items tr td:first-child").all_inner_texts()


def test_filter_and_search(page, server):
    for name, options in [("Cable", ["--color", "red", "--quantity", "3"]), ("Cable tie", ["--out-of-stock"]),
                          ("Keyboard", ["--color", "blue", "--quantity", "100"]), ("Phone", ["--out-of-stock", "--back-order"])]:
        server.cli("items", "add", "--name", name, *options)
    page.goto(server.url)
    assert names_listed(page) == ["Cable", "Cable tie", "Keyboard", "Phone"], names_listed(page)
    page.get_by_label("Search names").fill("CAB")
    page.get_by_label("Status").select_option("out-of-stock")
    page.get_by_role("button", name="Filter").click()
    expect(page.locator("#items tr")).to_have_count(1)
    assert names_listed(page) == ["Cable tie"], names_listed(page)
    shot(page, "list-filtered")
    # The same through the keyboard alone: tab to the search field, type, Enter submits.
    page.goto(server.url)
    page.keyboard.press("Tab")
    for _ in range(12):
        if page.evaluate("document.activeElement.id") == "search":
            break
        page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "search", "the search field is not reachable with Tab"
    page.keyboard.type("key")
    page.keyboard.press("Enter")
    page.wait_for_url("**search=key**")
    assert names_listed(page) == ["Keyboard"], names_listed(page)


def test_add_edit_and_stale_edit(page, server):
    page.goto(server.url)
    page.get_by_role("link", name="Add item").click()
    page.get_by_label("Name").fill("Headphones")
    page.get_by_label("Colour").select_option("green")
    page.get_by_label("Quantity (when in stock)").fill("4")
    page.get_by_role("button", name="Add item").click()
    expect(page.locator("h1")).to_have_text("Headphones")
    item_id = page.url.rsplit("/", 1)[1]
    shown = json.loads(server.cli("items", "show", item_id, "--format", "json"))
    assert shown["color"] == "green" and shown["status"] == {"case": "inStock", "quantity": 4}, shown
    # Edit: version 2.
    page.get_by_label("Quantity (when in stock)").fill("6")
    page.get_by_role("button", name="Save changes").click()
    assert json.loads(server.cli("items", "show", item_id, "--format", "json"))["version"] == 2
    shot(page, "item")
    # A stale edit: the CLI changes the item while the page is open; saving shows the conflict.
    server.cli("items", "update", item_id, "--quantity", "50")
    page.get_by_label("Name").fill("Headphones (wireless)")
    page.get_by_role("button", name="Save changes").click()
    expect(page.locator("h1")).to_have_text("Edit conflict")
    conflict = page.locator("#conflict").inner_text()
    assert "In stock: 50" in conflict and "Headphones (wireless)" in conflict, conflict
    shot(page, "stale-edit")
    after = json.loads(server.cli("items", "show", item_id, "--format", "json"))
    assert after["name"] == "Headphones" and after["version"] == 3, after  # nothing overwritten
    # The user decides: keep the current version.
    page.get_by_role("link", name="Keep version 3 and discard my edit").click()
    expect(page.locator("h1")).to_have_text("Headphones")
    # Or save theirs over it, knowingly.
    server.cli("items", "update", item_id, "--quantity", "51")
    page.get_by_label("Name").fill("Headphones (wired)")
    page.get_by_role("button", name="Save changes").click()
    page.get_by_role("button", name="Save my edit over version 4").click()
    expect(page.locator("h1")).to_have_text("Headphones (wired)")


def test_delete(page, server):
    item_id = server.cli("items", "add", "--name", "Old stapler").strip()
    page.goto(server.url + f"items/{item_id}")
    page.get_by_role("link", name="Delete this item…").click()
    expect(page.locator("h1")).to_have_text("Delete item?")
    shot(page, "delete-confirm")
    page.get_by_role("button", name="Delete").click()
    page.wait_for_url(server.url)
    assert "Old stapler" not in names_listed(page)
    history = json.loads(server.cli("items", "history", item_id, "--format", "json"))
    assert [event["kind"] for event in history] == ["added", "deleted"], history


def test_wizard(page, server):
    page.goto(server.url + "drafts")
    page.get_by_role("button", name="Start a new draft").click()
    # Name: blank is refused with the terminal's reason.
    page.get_by_role("button", name="Next").click()
    expect(page.locator(".error")).to_contain_text("must not be empty or blank")
    page.get_by_label("Name").fill("Desk lamp")
    page.get_by_role("button", name="Next").click()
    page.get_by_label("Colour").select_option("white")
    page.get_by_role("button", name="Next").click()
    # The location is optional: Back returns to the colour, Next with it empty skips it.
    page.get_by_role("button", name="Back").click()
    expect(page.get_by_label("Colour")).to_have_value("white")
    page.get_by_role("button", name="Next").click()
    page.get_by_label("Location").fill("Shelf B3")
    page.get_by_role("button", name="Next").click()
    # No: the back-order branch; Back returns to "In stock?".
    page.get_by_label("no").check()
    page.get_by_role("button", name="Next").click()
    expect(page.locator("legend")).to_contain_text("On back order?")
    page.get_by_role("button", name="Back").click()
    expect(page.locator("legend")).to_contain_text("In stock?")
    page.get_by_label("yes").check()
    page.get_by_role("button", name="Next").click()
    page.get_by_label("Quantity").fill("0")
    page.get_by_role("button", name="Next").click()
    expect(page.locator(".error")).to_contain_text("whole number of at least 1")
    page.get_by_label("Quantity").fill("2")
    page.get_by_role("button", name="Next").click()
    expect(page.locator("pre")).to_contain_text("Desk lamp")
    # Back to "In stock?", no, back, yes: the quantity offered is still 2, as in the terminal.
    page.get_by_role("button", name="Back").click()
    page.get_by_role("button", name="Back").click()
    page.get_by_label("no").check()
    page.get_by_role("button", name="Next").click()
    expect(page.locator("legend")).to_contain_text("On back order?")
    page.get_by_role("button", name="Back").click()
    page.get_by_label("yes").check()
    page.get_by_role("button", name="Next").click()
    expect(page.get_by_label("Quantity")).to_have_value("2")
    page.get_by_role("button", name="Next").click()
    expect(page.locator("pre")).to_contain_text("Desk lamp")
    shot(page, "wizard-review")
    page.get_by_role("button", name="Save").click()
    expect(page.locator("h1")).to_have_text("Desk lamp")
    # A draft started in the terminal is resumed in the browser, its answers as defaults.
    draft_id = server.cli("draft", "add", "--name", "Monitor arm", "--out-of-stock").strip()
    page.goto(server.url + "drafts")
    page.get_by_role("link", name=f"Continue {draft_id[:4]}\u2026{draft_id[-8:]}").click()
    expect(page.get_by_label("Name")).to_have_value("Monitor arm")
    page.get_by_role("button", name="Next").click()
    page.get_by_role("button", name="Next").click()
    page.get_by_role("button", name="Next").click()
    expect(page.get_by_label("no")).to_be_checked()
    page.get_by_role("button", name="Next").click()
    page.get_by_role("button", name="Next").click()
    page.get_by_role("button", name="Quit and keep the draft").click()
    assert draft_id in server.cli("draft", "list")


def test_import_with_bad_row(page, server):
    path = os.path.join(server.folder.name, "upload.jsonl")
    with open(path, "w") as file:
        file.write('{"name":"Good row","status":{"case":"inStock","quantity":1}}\n')
        file.write('{"name":"Bad row","status":{"case":"inStock","quantity":0}}\n')
    page.goto(server.url + "import")
    page.get_by_label("File (CSV or JSON Lines").set_input_files(path)
    page.get_by_role("button", name="Import").click()
    expect(page.locator("#import-errors")).to_contain_text("quantity must be at least 1")
    assert page.locator("#import-errors td").first.inner_text() == "2"
    shot(page, "import-errors")
    assert "Good row" not in server.cli("items", "list")
    with open(path, "w") as file:
        file.write('{"name":"Good row","status":{"case":"inStock","quantity":1}}\n')
    page.get_by_label("File (CSV or JSON Lines").set_input_files(path)
    page.get_by_role("button", name="Import").click()
    expect(page.locator(".notice")).to_contain_text("Imported 1 items")


def test_export_bytes(page, server):
    server.cli("items", "add", "--name", "=formula, \"quoted\"", "--color", "red")
    page.goto(server.url + "export")
    for format in ["csv", "jsonl", "json"]:
        with page.expect_download() as download:
            page.get_by_role("link", name=f"Download every item as {format.upper()}", exact=True).click()
        with open(download.value.path(), "rb") as file:
            downloaded = file.read()
        expected = subprocess.run([BIN, "--db", server.db, "export", "--format", format], capture_output=True, timeout=120).stdout
        assert downloaded == expected, f"{format}: {len(downloaded)} bytes vs the CLI's {len(expected)}"


def test_live_update_and_phone_width(page, server):
    page.set_viewport_size({"width": 375, "height": 800})
    page.goto(server.url)
    started = time.monotonic()
    server.cli("items", "add", "--name", "Added from the terminal")
    expect(page.locator("#items")).to_contain_text("Added from the terminal", timeout=10_000)
    print(f"  (the CLI's item appeared in the open page after {time.monotonic() - started:.2f} s)")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, f"the page is {width} px wide at phone width"
    shot(page, "list-phone")


def item_status(server, item_id):
    return json.loads(server.cli("items", "show", item_id, "--format", "json"))["status"]


def test_counter_row(page, server):
    keyboard = server.cli("items", "add", "--name", "Keyboard", "--color", "blue", "--quantity", "2").strip()
    phone = server.cli("items", "add", "--name", "Phone", "--color", "green", "--out-of-stock", "--back-order").strip()
    cable = server.cli("items", "add", "--name", "Cable", "--quantity", "7").strip()
    page.goto(server.url)
    # The swatch sits beside the colour's name, which is its text alternative.
    swatch = page.locator(f"#item-{keyboard} .swatch")
    expect(swatch).to_have_attribute("aria-hidden", "true")
    assert swatch.evaluate("e => getComputedStyle(e).backgroundColor") != "rgba(0, 0, 0, 0)"
    assert page.locator(f"#item-{keyboard} td").nth(1).inner_text().strip() == "blue"
    # Out of stock: said in words, in italics, and dimmed; an in-stock row is not.
    muted = page.locator(f"#item-{phone}")
    expect(muted.locator("td").nth(2)).to_have_text("Out of stock: on back order")
    assert muted.locator("em").evaluate("e => getComputedStyle(e).fontStyle") == "italic"
    assert float(muted.locator("td").first.evaluate("e => getComputedStyle(e).opacity")) < 1
    assert float(page.locator(f"#item-{keyboard} td").first.evaluate("e => getComputedStyle(e).opacity")) == 1
    expect(muted.get_by_role("button", name="-1 (sell one Phone)")).to_be_disabled()
    shot(page, "list-counter")
    # Sell one, receive one, receive five: each a plain form, the list back at the same place.
    page.get_by_role("button", name="-1 (sell one Keyboard)").click()
    expect(page.locator(f"#item-{keyboard}")).to_contain_text("In stock: 1")
    page.get_by_role("button", name="+1 (receive one Keyboard)").click()
    expect(page.locator(f"#item-{keyboard}")).to_contain_text("In stock: 2")
    # From the keyboard alone: the field, a number, Enter; then a button with Space.
    page.get_by_label("How many of Keyboard received").focus()
    page.keyboard.type("5")
    page.keyboard.press("Enter")
    expect(page.locator(f"#item-{keyboard}")).to_contain_text("In stock: 7")
    assert item_status(server, keyboard) == {"case": "inStock", "quantity": 7}
    page.get_by_role("button", name="+1 (receive one Phone)").focus()
    page.keyboard.press("Space")
    expect(page.locator(f"#item-{phone}")).to_contain_text("In stock: 1")
    expect(page.locator(f"#item-{phone}")).not_to_have_class("out-of-stock")
    history = json.loads(server.cli("items", "history", keyboard, "--format", "json"))
    assert [event["kind"] for event in history] == ["added", "changed", "changed", "changed"], history
    # Each press is recorded as the adjustment it was, not only as the quantity it left.
    assert [event.get("adjustedBy") for event in history] == [None, -1, 1, 5], history
    # A sale elsewhere while a number is being typed: the live update waits for the focus to
    # leave the table, so neither the number nor the focus is lost.
    field = page.get_by_label("How many of Cable received")
    field.focus()
    page.keyboard.type("3")
    server.cli("items", "adjust", keyboard, "--by", "-1")
    expect(page.locator("#items[data-stale]")).to_have_count(1, timeout=10_000)
    expect(field).to_have_value("3")
    assert page.evaluate("document.activeElement.id") == f"receive-{cable}"
    page.get_by_label("Search names").focus()
    expect(page.locator(f"#item-{keyboard}")).to_contain_text("In stock: 6")
    expect(page.locator("#items[data-stale]")).to_have_count(0)
    # Duplicate opens a draft copied from the row's item.
    page.get_by_role("button", name="Duplicate Keyboard").click()
    page.wait_for_url("**/drafts/**")
    expect(page.get_by_label("Name")).to_have_value("Keyboard")
    # At phone width every row, buttons included, fits.
    page.set_viewport_size({"width": 375, "height": 800})
    page.goto(server.url)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, f"the list is {width} px wide at phone width"
    # Nor does the table scroll sideways inside its box: every button is in sight.
    table = page.evaluate("[document.querySelector('.scroll').scrollWidth, document.querySelector('.scroll').clientWidth]")
    assert table[0] <= table[1], f"the table is {table[0]} px wide in a {table[1]} px box"
    shot(page, "list-counter-phone")


def test_two_pages_selling_the_last_items(page, server):
    item = server.cli("items", "add", "--name", "Last mugs", "--color", "white", "--quantity", "3").strip()
    other = page.context.browser.new_context()
    pages = [page, other.new_page()]
    try:
        for counter in pages:
            # Two counters with the list open and not refreshed: what each shows is stale.
            counter.route("**/api/events**", lambda route: route.abort())
            counter.goto(server.url)
            expect(counter.locator(f"#item-{item}")).to_contain_text("In stock: 3")

        def sell_at_once():
            with pages[0].expect_navigation(), pages[1].expect_navigation():
                for counter in pages:
                    counter.get_by_role("button", name="-1 (sell one Last mugs)").click(no_wait_after=True)

        # Both sell one of three at once: both sales count.
        sell_at_once()
        for counter in pages:
            expect(counter.locator(".error")).to_have_count(0)
        assert item_status(server, item) == {"case": "inStock", "quantity": 1}
        for counter in pages:
            counter.goto(server.url)
            expect(counter.locator(f"#item-{item}")).to_contain_text("In stock: 1")
        # Both sell the last one at once: one sale, one refusal saying why; nothing below empty.
        sell_at_once()
        errors = [counter.locator(".error").all_inner_texts() for counter in pages]
        assert sorted(len(e) for e in errors) == [0, 1], errors
        assert "Last mugs: none in stock, cannot take 1; nothing was changed" in sum(errors, []), errors
        refused = pages[0] if errors[0] else pages[1]
        expect(refused.locator(f"#item-{item}")).to_contain_text("Out of stock")
        shot(refused, "counter-refused")
        assert item_status(server, item) == {"case": "outOfStock", "isOnBackOrder": False}
        history = json.loads(server.cli("items", "history", item, "--format", "json"))
        assert [event["kind"] for event in history] == ["added", "changed", "changed", "changed"], history
    finally:
        other.close()


def replica_cli(server, replica, *arguments):
    """`stockroom --db rN.sqlite ...` on a replica file beside the served hub."""
    path = os.path.join(server.folder.name, replica)
    result = subprocess.run([BIN, "--db", path, *arguments], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, f"stockroom --db {replica} {' '.join(arguments)}: {result.returncode} {result.stderr}"
    return result.stdout


def sync_status(server, replica):
    return json.loads(replica_cli(server, replica, "sync", "status", "--format", "json"))


def tab_to(page, name):
    """Presses Tab until the focus is on the button `name`; fails when it never gets there."""
    for _ in range(40):
        if page.evaluate("document.activeElement && document.activeElement.textContent.trim()") == name:
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"the button {name!r} is not reachable with Tab")


def test_conflicts_from_two_replicas(page, server):
    # The served file is the hub; two replicas sync with it through the file, as a stall would.
    mug = server.cli("items", "add", "--name", "Last mug", "--color", "white", "--quantity", "1").strip()
    lamp = server.cli("items", "add", "--name", "Desk lamp", "--color", "white", "--quantity", "2").strip()
    hub = server.db
    for replica in ["r1.sqlite", "r2.sqlite"]:
        replica_cli(server, replica, "sync", "--hub", hub)
    page.goto(server.url)
    expect(page.locator("#sync-state")).to_have_attribute("data-conflicts", "0")
    expect(page.locator("#conflicts-link")).to_have_count(0)
    # Offline, both sell the last mug and recolour the lamp.
    for replica, colour in [("r1.sqlite", "red"), ("r2.sqlite", "blue")]:
        replica_cli(server, replica, "items", "adjust", mug, "--by", "-1")
        replica_cli(server, replica, "items", "update", lamp, "--color", colour)
    assert json.loads(replica_cli(server, "r1.sqlite", "sync", "--format", "json"))["conflicts"] == 0
    # The second reaches the hub after the first: the mug is oversold by one (the hub's item
    # was already out of stock, so nothing of it changes), the lamp's colour overtaken.
    started = time.monotonic()
    assert json.loads(replica_cli(server, "r2.sqlite", "sync", "--format", "json"))["conflicts"] == 2
    expect(page.locator("#conflict-count")).to_have_text("2", timeout=10_000)
    print(f"  (the count reached the open list page {time.monotonic() - started:.2f} s after the sync)")
    second = sync_status(server, "r2.sqlite")["replica"]
    shot(page, "list-conflicts")

    # The mug's conflict, resolved from the keyboard in a second page, the list staying open.
    other = page.context.new_page()
    other.set_viewport_size({"width": 375, "height": 800})
    other.goto(server.url)
    other.get_by_role("link", name="2 open conflicts to resolve").click()
    other.get_by_role("link", name="Resolve Last mug").click()
    facts = other.locator("#conflict-facts").inner_text()
    assert second in facts and "oversold, 1 missing" in facts and "1 unit" in facts, facts
    sides = other.locator("#conflict-sides").inner_text()
    assert "Out of stock" in sides, sides
    width = other.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, f"the conflict's page is {width} px wide at phone width"
    shot(other, "conflict-phone")
    other.locator("body").focus()
    tab_to(other, "Keep the hub's value")
    other.keyboard.press("Enter")
    other.wait_for_url("**/conflicts?resolved=keep")
    expect(other.locator(".notice")).to_have_text("Resolved: the hub's value was kept.")
    expect(page.locator("#conflict-count")).to_have_text("1", timeout=10_000)
    other.close()

    # The lamp's, without JavaScript: edit, then save.
    plain = page.context.browser.new_context(java_script_enabled=False)
    try:
        form = plain.new_page()
        form.goto(server.url + "conflicts")
        form.get_by_role("link", name="Resolve Desk lamp").click()
        sides = form.locator("#conflict-sides").inner_text()
        assert "red" in sides and "blue" in sides, sides
        expect(form.get_by_label("Colour")).to_have_value("blue")  # the draft starts as the replica's
        form.get_by_label("Colour").select_option("green")
        form.get_by_role("button", name="Save this as the resolution").click()
        form.wait_for_url("**/conflicts?resolved=save")
        expect(form.locator("#no-conflicts")).to_have_count(1)
    finally:
        plain.close()
    expect(page.locator("#conflicts-link")).to_have_count(0, timeout=10_000)
    expect(page.locator("#sync-state")).to_have_attribute("data-conflicts", "0")

    # Both replicas sync again: no conflict left on either, and each holds the hub's choices.
    for replica in ["r1.sqlite", "r2.sqlite"]:
        replica_cli(server, replica, "sync")
        assert sync_status(server, replica)["conflicts"] == 0, replica
        shown = json.loads(replica_cli(server, replica, "items", "show", lamp, "--format", "json"))
        assert shown["color"] == "green", (replica, shown)
        assert item_status(server, mug) == {"case": "outOfStock", "isOnBackOrder": False}


def test_replica_state_on_its_own_server(page, server):
    # The served file becomes a replica of a hub beside it: its list page says what waits.
    hub = os.path.join(server.folder.name, "hub.sqlite")
    subprocess.run([BIN, "--db", hub, "migrate", "up"], capture_output=True, timeout=120, check=True)
    page.goto(server.url)
    expect(page.locator("#replica-state")).to_have_count(0)
    server.cli("sync", "--hub", hub)
    last = json.loads(server.cli("sync", "status", "--format", "json"))["lastSync"]
    server.cli("items", "add", "--name", "Sold at the stall")
    expect(page.locator("#items")).to_contain_text("Sold at the stall", timeout=10_000)
    expect(page.locator("#pending-count")).to_have_text("1")
    expect(page.locator("#last-sync")).to_have_text(last)


TESTS = [test_filter_and_search, test_add_edit_and_stale_edit, test_delete, test_wizard,
         test_import_with_bad_row, test_export_bytes, test_live_update_and_phone_width,
         test_counter_row, test_two_pages_selling_the_last_items, test_conflicts_from_two_replicas,
         test_replica_state_on_its_own_server]


def main():
    passed = failed = 0
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        for test in TESTS:
            server = Server()
            context = browser.new_context(accept_downloads=True)
            page = context.new_page()
            page.set_default_timeout(15_000)
            try:
                test(page, server)
                passed += 1
                print(f"ok {test.__name__}")
            except Exception:
                failed += 1
                print(f"FAIL {test.__name__}")
                traceback.print_exc()
                shot(page, "failed-" + test.__name__)
            finally:
                context.close()
                server.stop()
        browser.close()
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

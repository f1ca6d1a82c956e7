"""The search page in headless Chromium, driven by selenium, every figure checked against the JSON API.

    python3 scripts/test-browser.py BASE_URL ARTEFACTS_DIR

Run by scripts/test-browser.sh (`make test-browser`), which starts the server on the shipped Antwerp sample.
Each step does what a person does (typing, clicking, dragging) and then compares what the page shows with
what /v1/search, /v1/listings/{id} answer for the same query. Screenshots go to ARTEFACTS_DIR.
"""
import json
import re
import sys
import time
import urllib.parse
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

BASE, ARTEFACTS = sys.argv[1], sys.argv[2]
passed = []


def api(path, params):
    """GET a JSON route; params as a list of pairs or a dict."""
    query = urllib.parse.urlencode(params, doseq=True)
    with urllib.request.urlopen(f"{BASE}{path}?{query}") as response:
        return json.load(response)


def money(value):
    """As the page writes money: whole amounts without cents, others with two decimals, grouped."""
    return f"${value:,.0f}" if float(value).is_integer() else f"${value:,.2f}"


def amount(text):
    """'$1,234' or '$733+' -> (1234.0, plus?)."""
    match = re.fullmatch(r"\$([\d,]+(?:\.\d+)?)(\+?)", text.strip())
    assert match, f"not an amount: {text!r}"
    return float(match.group(1).replace(",", "")), match.group(2) == "+"


def day_price(value):
    """As the page writes a day's lowest total in its cell: whole dollars rounded half up, $12k from ten thousand."""
    return f"${int(value / 1000 + 0.5)}k" if value >= 10000 else f"${int(value + 0.5):,}"


def calendar_agrees_with_api(what, nights):
    """Each day of the open month grid shows the price calendar's lowest total of the page's query for that
    check-in, and is greyed out exactly when nothing can be booked from it."""
    wait(lambda: js("return document.getElementById('months').dataset.prices") == "ready"
         and js("return document.getElementById('months').dataset.pricesNights") == str(nights), f"{what}: the day prices")
    shown = js("return [...document.querySelectorAll('#months button.day')].map(b => "
               "[b.dataset.day, b.querySelector('.day-price').textContent, b.classList.contains('no-stays')])")
    keys = ("region", "adults", "children", "infants", "min_price", "max_price", "room_type")
    query = [(k, v) for k, v in page_query() if k in keys]
    answer = api("/v1/price-calendar", query + [("checkin_from", shown[0][0]), ("checkin_to", shown[-1][0]), ("nights", str(nights))])
    by_day = {d["checkin"]: d for d in answer["days"]}
    priced = greyed = 0
    for day, price, grey in shown:
        d = by_day[day]
        expected = "" if d["lowest_total"] is None else day_price(d["lowest_total"])
        assert price == expected, f"{what}: {day} shows {price!r}, the API's lowest total {d['lowest_total']}"
        assert grey == (d["status"] == "open" and d["count"] == 0), f"{what}: {day} greyed {grey}, the API counts {d['count']} ({d['status']})"
        priced += price != ""
        greyed += grey
    assert priced >= 20, f"{what}: only {priced} days priced"
    return priced, greyed


def step(name):
    def wrap(function):
        def run(*args):
            started = time.time()
            function(*args)
            passed.append(name)
            print(f"  ok  {name} ({time.time() - started:.1f} s)", flush=True)
        return run
    return wrap


def wait(condition, what, timeout=15):
    end = time.time() + timeout
    while time.time() < end:
        try:
            value = condition()
            if value:
                return value
        except Exception:  # an element not there yet
            pass
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


options = webdriver.ChromeOptions()
for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
                 "--force-device-scale-factor=1", "--lang=en-US"]:
    options.add_argument(argument)
options.binary_location = "/usr/bin/chromium"
options.set_capability("goog:loggingOptions", {"browser": "ALL"})
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
driver.set_window_size(1400, 1000)
by_id = lambda name: driver.find_element(By.ID, name)
js = driver.execute_script


def searches():
    return int(js("return document.body.dataset.searches || '0'"))


def after_search(action, what):
    """Does `action`, then waits for the page's next search to be answered and the page settled."""
    before = searches()
    action()
    wait(lambda: searches() > before and js("return document.body.dataset.settled") == "true", what)


def page_query():
    """The query the page shows, from its address (the page keeps it there)."""
    pairs = urllib.parse.parse_qsl(urllib.parse.urlparse(driver.current_url).query)
    if not any(key == "adults" for key, _ in pairs):
        pairs.append(("adults", "1"))
    return pairs


def shown_total():
    return int(by_id("summary").get_attribute("data-total"))


def card_ids():
    return [card.get_attribute("data-id") for card in driver.find_elements(By.CSS_SELECTOR, "#results .card")]


def agrees_with_api(what):
    """The page's count, its results in order and their prices are the API's for the page's query."""
    query = page_query()
    answer = api("/v1/search", query + [("limit", "20")])
    assert shown_total() == answer["total"], f"{what}: page shows {shown_total()} homes, the API {answer['total']}"
    assert card_ids() == [r["id"] for r in answer["results"]], f"{what}: results differ from the API's"
    for card, result in zip(driver.find_elements(By.CSS_SELECTOR, "#results .card"), answer["results"]):
        price = card.find_element(By.CSS_SELECTOR, ".card-price strong").text
        assert price == money(result["nightly_price"]), f"{what}: card shows {price}, API {result['nightly_price']}"
        if result["total_price"] is not None:
            total = card.find_element(By.CSS_SELECTOR, ".card-total").text
            assert total == f"{money(result['total_price'])} total", f"{what}: {total} vs {result['total_price']}"
    return answer


def screenshot(name, full=False):
    if full:
        width, height = driver.get_window_size()["width"], driver.get_window_size()["height"]
        driver.set_window_size(width, min(6000, js("return document.documentElement.scrollHeight") + 140))
        time.sleep(0.3)
        driver.save_screenshot(f"{ARTEFACTS}/{name}.png")
        driver.set_window_size(width, height)
    else:
        driver.save_screenshot(f"{ARTEFACTS}/{name}.png")


@step("the page loads and counts every listing as the API does")
def loads():
    driver.get(BASE + "/")
    wait(lambda: js("return document.body.dataset.ready") == "true", "the first search")
    agrees_with_api("first load")
    assert shown_total() == api("/v1/search", {"limit": 0})["total"]


@step("typing a region shows suggestions; picking one searches it")
def region():
    box = by_id("region")
    box.click()
    box.send_keys("histor")
    option = wait(lambda: next(o for o in driver.find_elements(By.CSS_SELECTOR, "#suggestions li[role=option]")
                              if o.get_attribute("data-path") == "Antwerp/Historisch Centrum"), "a suggestion")
    expected = api("/v1/regions", {"prefix": "histor", "limit": 8})
    shown = [o.get_attribute("data-path") for o in driver.find_elements(By.CSS_SELECTOR, "#suggestions li[role=option]")]
    assert shown == ["/".join(s["path"]) for s in expected], f"suggestions {shown} vs API {expected}"
    after_search(option.click, "the region's search")
    assert box.get_attribute("value") == "Historisch Centrum, Antwerp"
    assert ("region", "Antwerp/Historisch Centrum") in page_query()
    agrees_with_api("region picked")


@step("the month grid shows each day's lowest total as the price calendar gives it; choosing check-in and check-out searches the stay")
def dates():
    by_id("dates-button").click()
    wait(lambda: by_id("calendar").is_displayed(), "the calendar")
    while not driver.find_elements(By.CSS_SELECTOR, 'button.day[data-day="2024-07-15"]'):
        by_id("month-next").click()
    calendar_agrees_with_api("the month grid", 3)
    driver.find_element(By.CSS_SELECTOR, 'button.day[data-day="2024-07-12"]').click()
    assert by_id("calendar-hint").text == "Select a check-out date"
    after_search(lambda: driver.find_element(By.CSS_SELECTOR, 'button.day[data-day="2024-07-15"]').click(), "the stay's search")
    assert by_id("calendar-hint").text == "3 nights · Jul 12 – Jul 15"
    in_range = driver.find_elements(By.CSS_SELECTOR, "#months td.in-range")
    assert len(in_range) == 4, f"the range shows {len(in_range)} days"
    screenshot("desktop-calendar")
    by_id("dates-done").click()
    assert by_id("checkin-label").text == "Jul 12" and by_id("checkout-label").text == "Jul 15"
    query = page_query()
    assert ("checkin", "2024-07-12") in query and ("checkout", "2024-07-15") in query
    answer = agrees_with_api("dates chosen")
    assert answer["nights"] == 3


@step("the guests stepper sets adults, children and infants")
def guests():
    by_id("guests-button").click()
    wait(lambda: by_id("guests").is_displayed(), "the guests popover")
    plus = lambda kind: driver.find_element(By.CSS_SELECTOR, f'.stepper[data-kind="{kind}"] .plus')
    for kind in ["adults", "adults", "children", "infants"]:
        after_search(plus(kind).click, f"a search after one more {kind}")
    assert by_id("guests-label").text == "4 guests, 1 infant", by_id("guests-label").text
    minus = driver.find_element(By.CSS_SELECTOR, '.stepper[data-kind="infants"] .minus')
    assert minus.is_enabled()
    query = page_query()
    assert ("adults", "3") in query and ("children", "1") in query and ("infants", "1") in query, query
    driver.find_element(By.TAG_NAME, "h1").click()   # closes the popover
    agrees_with_api("guests set")


def drag(thumb_input, at, by, pause_before_release=None):
    """Drags the thumb of a range input that sits at fraction `at` of its width by `by` pixels."""
    width = thumb_input.size["width"]
    x = round(-width / 2 + 13 + at * (width - 26))
    chain = ActionChains(driver).move_to_element_with_offset(thumb_input, x, 0).click_and_hold()
    for _ in range(6):
        chain = chain.move_by_offset(round(by / 6), 0).pause(0.05)
    chain.perform()
    if pause_before_release:
        pause_before_release()
    ActionChains(driver).release().perform()


@step("dragging the price thumbs counts the homes in the range as they move, then searches it")
def slider():
    before = shown_total()
    low, high = by_id("price-low"), by_id("price-high")
    width = low.size["width"]

    def while_held():
        # Still held: the count under the slider follows the thumbs.
        low_value, _ = amount(by_id("low-label").text)
        expected = api("/v1/search", [p for p in page_query() if p[0] not in ("min_price", "max_price")]
                       + [("min_price", int(low_value)), ("limit", 0)])["total"]
        wait(lambda: by_id("range-count").get_attribute("data-total") == str(expected), "the count while dragging")
        assert expected < before, "the low thumb moved right, so fewer homes"
        assert by_id("range-count").text.endswith("in this range")

    after_search(lambda: drag(low, 0.0, width * 0.12, while_held), "the search after the low thumb")
    after_search(lambda: drag(high, 1.0, -width * 0.55), "the search after the high thumb")
    low_value, _ = amount(by_id("low-label").text)
    high_value, plus = amount(by_id("high-label").text)
    assert not plus and low_value < high_value
    query = dict(page_query())
    assert float(query["min_price"]) == low_value and float(query["max_price"]) == high_value, query
    answer = agrees_with_api("price range")
    assert by_id("range-count").get_attribute("data-total") == str(answer["total"])
    assert 0 < answer["total"] < before
    for result in answer["results"]:
        assert low_value <= result["nightly_price"] <= high_value
    inside = driver.find_elements(By.CSS_SELECTOR, "#histogram .bar-col.inside")
    bars = driver.find_elements(By.CSS_SELECTOR, "#histogram .bar-col")
    assert 0 < len(inside) < len(bars), "the selected range is highlighted on the bars"
    # The histogram ignores the price range: its bars are the ones of the query without it.
    unpriced = api("/v1/search", [p for p in page_query() if p[0] not in ("min_price", "max_price")] + [("limit", 0)])
    assert unpriced["histogram"]["count"] == sum(unpriced["histogram"]["counts"]) + unpriced["histogram"]["underflow"] + unpriced["histogram"]["overflow"]
    assert len(bars) == unpriced["histogram"]["bins"] + (1 if unpriced["histogram"]["overflow"] else 0)


@step("the map's pins are the page's results, and one opens its listing")
def map_pins():
    wait(lambda: len(driver.find_elements(By.CSS_SELECTOR, "#pins button")) == len(card_ids()), "the map's pins")
    assert [p.get_attribute("data-id") for p in driver.find_elements(By.CSS_SELECTOR, "#pins button")] == card_ids()
    assert js("return document.getElementById('map-image').naturalWidth") >= 200
    screenshot("desktop-results")


@step("the map draws the neighbourhoods' outlines the index keeps, around their listings, and one searches its neighbourhood")
def outlines():
    features = api("/v1/neighbourhoods.geojson", {})["features"]
    assert len(features) > 10, f"only {len(features)} outlines served"
    wait(lambda: len(driver.find_elements(By.CSS_SELECTOR, "#outlines g")) == len(features), "the outlines")
    assert [g.get_attribute("data-region") for g in driver.find_elements(By.CSS_SELECTOR, "#outlines g")] == \
        [f"{f['properties']['city']}/{f['properties']['name']}" for f in features]
    # The chosen region's outline is marked and holds every pin of its results (outline and pins share the map).
    chosen = driver.find_elements(By.CSS_SELECTOR, "#outlines g.chosen")
    assert len(chosen) == 1, f"{len(chosen)} outlines marked chosen for {dict(page_query()).get('region')}"
    box = js("const r = arguments[0].getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]", chosen[0])
    pins = driver.find_elements(By.CSS_SELECTOR, "#pins button")
    assert pins
    for pin in pins:
        x, y = js("const r = arguments[0].getBoundingClientRect(); return [(r.left + r.right) / 2, (r.top + r.bottom) / 2]", pin)
        assert box[0] - 2 <= x <= box[2] + 2 and box[1] - 2 <= y <= box[3] + 2, f"pin at {x},{y} outside the outline {box}"
    screenshot("desktop-outlines")
    # Clicking another neighbourhood searches it.
    other = next(g for g in driver.find_elements(By.CSS_SELECTOR, "#outlines g") if g.get_attribute("data-region").endswith("/Zuid"))
    after_search(lambda: js("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", other), "the outline's search")
    assert dict(page_query()).get("region") == "Antwerp/Zuid", page_query()
    agrees_with_api("an outline's search")


@step("opening a listing shows its night-by-night quote and total, as the API quotes it")
def listing():
    card = driver.find_elements(By.CSS_SELECTOR, "#results .card")[0]
    listing_id = card.get_attribute("data-id")
    card.click()
    total = wait(lambda: by_id("quote-total"), "the quote")
    query = dict(page_query())
    quote = api(f"/v1/listings/{listing_id}", {k: query[k] for k in ("checkin", "checkout", "adults", "children", "infants")})["quote"]
    assert total.text == money(quote["total_price"]), f"{total.text} vs {quote['total_price']}"
    rows = driver.find_elements(By.CSS_SELECTOR, "#quote .nights-scroll tr")
    assert len(rows) == len(quote["nights"]) == 3
    for row, night in zip(rows, quote["nights"]):
        assert row.find_elements(By.TAG_NAME, "td")[-1].text == money(night["price"])
    assert by_id("panel").get_attribute("data-id") == listing_id
    wait(lambda: len(driver.find_elements(By.CSS_SELECTOR, "#listing-calendar td.stay")) == 3, "the stay on the calendar")
    screenshot("desktop-listing")
    by_id("panel-close").click()
    assert not by_id("panel").is_displayed()
    pin = driver.find_elements(By.CSS_SELECTOR, "#pins button")[0]
    js("arguments[0].click()", pin)   # may sit under another pin's label; the click is the pin's own
    wait(lambda: by_id("panel").get_attribute("data-id") == pin.get_attribute("data-id"), "the pin's listing")
    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)
    wait(lambda: not by_id("panel").is_displayed(), "the panel to close on Escape")


def trip_lines(quote, nights_word, money, discount_word, extra_word, words):
    """The lines the listing panel must show for a quote with fees, as (data-line, label check, amount), in order."""
    lines = [("nightly_subtotal", lambda label: label.endswith(nights_word), money(quote["nightly_subtotal"]))]
    discount, extra = quote["length_of_stay_discount"], quote["extra_guests"]
    if discount:
        lines.append(("length_of_stay_discount", lambda label: label == discount_word(discount), "−" + money(discount["amount"])))
    if extra:
        lines.append(("extra_guests", lambda label: label == extra_word(extra), money(extra["amount"])))
    if float(quote["cleaning_fee"]) > 0:
        lines.append(("cleaning_fee", lambda label: label == words["cleaning_fee"], money(quote["cleaning_fee"])))
    if quote["service_fee"]["percent"] > 0:
        lines.append(("service_fee", lambda label: label == words["service_fee"].format(f"{quote['service_fee']['percent']:g}"),
                      money(quote["service_fee"]["amount"])))
    lines.append(("trip_price", lambda label: label == words["trip_price"], money(quote["trip_price"])))
    if quote["taxes"]["percent"] > 0:
        lines.append(("taxes", lambda label: label == words["taxes"].format(f"{quote['taxes']['percent']:g}"), money(quote["taxes"]["amount"])))
        lines.append(("total_with_taxes", lambda label: label == words["total_with_taxes"], money(quote["total_with_taxes"])))
    if quote["security_deposit"] is not None:
        lines.append(("security_deposit", lambda label: label == words["security_deposit"], money(quote["security_deposit"])))
    return lines


def open_trip_quote(driver, api, page_query, by_id, keys):
    """Opens, from the page's results, the first listing whose quote has a cleaning fee, a length-of-stay discount
    and extra guests; returns the API's quote and the panel's lines as {data-line: (label, amount)}."""
    query = dict(page_query())
    for result in api("/v1/search", page_query() + [("limit", "20")])["results"]:
        quote = api(f"/v1/listings/{result['id']}", {k: query[k] for k in keys if k in query})["quote"]
        if float(quote["cleaning_fee"]) > 0 and quote["length_of_stay_discount"] and quote["extra_guests"]:
            break
    else:
        raise AssertionError("no listing among the first 20 has a cleaning fee, a discount and extra guests")
    card = driver.find_element(By.CSS_SELECTOR, f'#results .card[data-id="{result["id"]}"]')
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", card)
    card.click()
    wait(lambda: by_id("panel").get_attribute("data-id") == result["id"] and driver.find_elements(By.CSS_SELECTOR, "#trip tr"), "the trip's lines")
    shown = {}
    for row in driver.find_elements(By.CSS_SELECTOR, "#trip tr"):
        cells = row.find_elements(By.TAG_NAME, "td")
        shown[row.get_attribute("data-line")] = (cells[0].text, cells[1].text)
    return result, quote, shown


def panel_agrees(quote, shown, lines, total_text, money):
    assert list(shown) == [key for key, _, _ in lines], f"the panel's lines {list(shown)}, the quote's {[k for k, _, _ in lines]}"
    for key, label_ok, amount in lines:
        label, text = shown[key]
        assert label_ok(label), f"{key}: label {label!r}"
        assert text == amount, f"{key}: the panel shows {text}, the quote {amount}"
    assert quote["trip_price"] == quote["total_price"] and total_text == money(quote["total_price"]), (total_text, quote["total_price"])


@step("a week for three: the listing panel shows the quote's lines (nights, weekly discount, extra guests, cleaning and service fees, trip price, taxes) as the API quotes them")
def trip_quote():
    driver.get(BASE + "/?region=Antwerp&checkin=2024-08-05&checkout=2024-08-13&adults=3&sort=rating")
    wait(lambda: js("return document.body.dataset.ready") == "true", "the search")
    agrees_with_api("a week for three")
    result, quote, shown = open_trip_quote(driver, api, page_query, by_id, ("checkin", "checkout", "adults"))
    words = {"cleaning_fee": "Cleaning fee", "service_fee": "Service fee ({} %)", "trip_price": "Trip price (all fees, before taxes)",
             "taxes": "Taxes ({} %)", "total_with_taxes": "Total with taxes", "security_deposit": "Security deposit (not charged)"}
    lines = trip_lines(quote, "× 8 nights", money,
                       lambda d: f"{'Weekly' if d['kind'] == 'weekly' else 'Monthly'} discount ({d['percent']:g} %)",
                       lambda x: f"Extra guests ({x['guests']} × {money(x['fee_per_night'])} × 8)", words)
    panel_agrees(quote, shown, lines, by_id("quote-total").text, money)
    screenshot("desktop-trip-quote")
    by_id("panel-close").click()


@step("a bad region is answered with the API's message, and the last results stay")
def bad_input():
    ids = card_ids()
    box = by_id("region")
    box.clear()
    box.send_keys("Atlantis")
    after_search(lambda: box.send_keys(Keys.ENTER), "the bad search")
    error = by_id("error")
    expected = urllib.request.Request(f"{BASE}/v1/search?region=Atlantis")
    try:
        urllib.request.urlopen(expected)
        raise AssertionError("the API took region=Atlantis")
    except urllib.error.HTTPError as failure:
        body = json.load(failure)
        message = body["message"]
        assert body["error"] == message and body["code"] == "unknown_region", body
    assert error.is_displayed() and error.text == message, error.text
    assert card_ids() == ids


@step("at phone width the page fits the screen, and the calendar and a listing open")
def phone():
    driver.set_window_size(390, 844)
    driver.get(BASE + "/?region=Antwerp%2FZuid&checkin=2024-08-02&checkout=2024-08-04&adults=2")
    wait(lambda: js("return document.body.dataset.ready") == "true", "the first search")
    agrees_with_api("phone")
    overflow = js("return document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the page is {overflow} px wider than the phone"
    wait(lambda: int(js("return document.body.dataset.maps || '0'")) > 0, "the map")
    screenshot("phone", full=True)
    by_id("dates-button").click()
    wait(lambda: by_id("calendar").is_displayed(), "the calendar")
    chosen = driver.find_elements(By.CSS_SELECTOR, "button.day.chosen")
    assert [c.get_attribute("data-day") for c in chosen] == ["2024-08-02", "2024-08-04"]
    screenshot("phone-calendar")
    by_id("dates-done").click()
    driver.find_elements(By.CSS_SELECTOR, "#results .card")[0].click()
    wait(lambda: by_id("quote-total"), "the quote")
    screenshot("phone-listing")


@step("with a price range few stays meet, the days from which nothing can be booked are greyed out as the price calendar says")
def sold_out_days():
    driver.set_window_size(1400, 1000)
    driver.get(BASE + "/?region=Antwerp%2FZuid&adults=2&min_price=100&max_price=101")
    wait(lambda: js("return document.body.dataset.ready") == "true", "the search")
    by_id("dates-button").click()
    wait(lambda: by_id("calendar").is_displayed(), "the calendar")
    while not driver.find_elements(By.CSS_SELECTOR, 'button.day[data-day="2024-07-15"]'):
        by_id("month-next").click()
    priced, greyed = calendar_agrees_with_api("a narrow price range", 3)
    assert greyed >= 3, f"only {greyed} days greyed out"
    screenshot("desktop-calendar-sold-out")
    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)


@step("the browser logged no errors")
def console():
    errors = [entry["message"] for entry in driver.get_log("browser")
              if entry["level"] == "SEVERE" and "region=Atlantis" not in entry["message"]]
    assert not errors, errors


try:
    for test in [loads, region, dates, guests, slider, map_pins, outlines, listing, trip_quote, bad_input, phone, sold_out_days, console]:
        test()
except Exception:
    screenshot("failure")
    print(f"test-browser: failed after {len(passed)} steps; screenshot in {ARTEFACTS}/failure.png", file=sys.stderr)
    raise
finally:
    driver.quit()
print(f"test-browser: {len(passed)} steps passed")

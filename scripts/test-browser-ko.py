"""The search page in Korean, in headless Chromium asking for Korean (Accept-Language: ko-KR), against a server
whose prices are in won (`serve --currency KRW`, no --locale: the page follows the browser).

    python3 scripts/test-browser-ko.py BASE_URL ARTEFACTS_DIR

Run by scripts/test-browser.sh on the Seoul-shaped sample of scripts/seoul-sample.py. Types 종로 and picks the
suggestion, picks dates on the Korean calendar (weeks from Sunday, "2024년 7월"), orders by recommendation, and
checks the counts, nightly prices and totals (₩, whole won) against the API's, as the English test does.
"""
import json
import re
import sys
import time
import urllib.parse
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

BASE, ARTEFACTS = sys.argv[1], sys.argv[2]
passed = []


def api(path, params):
    query = urllib.parse.urlencode(params, doseq=True)
    with urllib.request.urlopen(f"{BASE}{path}?{query}") as response:
        return json.load(response)


def won(value):
    """As the page writes won: whole, rounded half up, grouped, after ₩."""
    return f"₩{int(value + 0.5):,}"


def day_price(value):
    """As the page writes a day's lowest total in its cell: whole won, as everywhere."""
    return won(value)


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
                 "--force-device-scale-factor=1", "--lang=ko-KR"]:
    options.add_argument(argument)
options.add_experimental_option("prefs", {"intl.accept_languages": "ko-KR,ko"})
options.binary_location = "/usr/bin/chromium"
options.set_capability("goog:loggingOptions", {"browser": "ALL"})
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
driver.set_window_size(1400, 1000)
by_id = lambda name: driver.find_element(By.ID, name)
js = driver.execute_script


def searches():
    return int(js("return document.body.dataset.searches || '0'"))


def after_search(action, what):
    before = searches()
    action()
    wait(lambda: searches() > before and js("return document.body.dataset.settled") == "true", what)


def page_query():
    pairs = urllib.parse.parse_qsl(urllib.parse.urlparse(driver.current_url).query)
    if not any(key == "adults" for key, _ in pairs):
        pairs.append(("adults", "1"))
    return pairs


def agrees_with_api(what):
    """The page's count, results and prices (₩, whole) are the API's for the page's query."""
    answer = api("/v1/search", page_query() + [("limit", "20")])
    shown = int(by_id("summary").get_attribute("data-total"))
    assert shown == answer["total"], f"{what}: page shows {shown} homes, the API {answer['total']}"
    assert by_id("summary").text.startswith(f"숙소 {answer['total']:,}곳"), by_id("summary").text
    cards = driver.find_elements(By.CSS_SELECTOR, "#results .card")
    assert [c.get_attribute("data-id") for c in cards] == [r["id"] for r in answer["results"]], f"{what}: results differ"
    for card, result in zip(cards, answer["results"]):
        price = card.find_element(By.CSS_SELECTOR, ".card-price strong").text
        assert price == won(result["nightly_price"]), f"{what}: card shows {price}, API {result['nightly_price']}"
        if result["total_price"] is not None:
            total = card.find_element(By.CSS_SELECTOR, ".card-total").text
            assert total == f"총액 {won(result['total_price'])}", f"{what}: {total} vs {result['total_price']}"
    return answer


@step("the page is in Korean because the browser asks for it, prices in won")
def loads():
    driver.get(BASE + "/")
    wait(lambda: js("return document.body.dataset.ready") == "true", "the first search")
    assert js("return document.documentElement.lang") == "ko"
    assert by_id("go").text == "검색" and driver.find_element(By.CSS_SELECTOR, "label[for=region]").text == "여행지"
    agrees_with_api("first load")
    low = by_id("low-label").text
    assert re.fullmatch(r"₩[\d,]+", low), f"the slider's low label is {low!r}"


@step("typing 종로 suggests Jongno-gu; picking it searches it")
def region():
    box = by_id("region")
    box.click()
    box.send_keys("종로")
    option = wait(lambda: next(o for o in driver.find_elements(By.CSS_SELECTOR, "#suggestions li[role=option]")
                              if o.get_attribute("data-path") == "Seoul/Jongno-gu"), "the suggestion")
    expected = api("/v1/regions", {"prefix": "종로", "limit": 8})
    shown = [o.get_attribute("data-path") for o in driver.find_elements(By.CSS_SELECTOR, "#suggestions li[role=option]")]
    assert shown == ["/".join(s["path"]) for s in expected], f"suggestions {shown} vs API {expected}"
    count = option.find_element(By.CSS_SELECTOR, ".count").text
    assert re.fullmatch(r"숙소 [\d,]+곳", count), count
    after_search(option.click, "the region's search")
    assert ("region", "Seoul/Jongno-gu") in page_query()
    agrees_with_api("region picked")


@step("the Korean calendar starts its weeks on Sunday and shows each day's lowest total in won; picking a stay searches it")
def dates():
    by_id("dates-button").click()
    wait(lambda: by_id("calendar").is_displayed(), "the calendar")
    while not driver.find_elements(By.CSS_SELECTOR, 'button.day[data-day="2024-07-15"]'):
        by_id("month-next").click()
    calendar_agrees_with_api("the month grid", 3)
    headers = [th.text for th in driver.find_elements(By.CSS_SELECTOR, "#months .month:first-child th")]
    assert headers == ["일", "월", "화", "수", "목", "금", "토"], headers
    titles = [h.text for h in driver.find_elements(By.CSS_SELECTOR, "#months h3")]
    assert "2024년 7월" in titles, titles
    # 2024-07-01 was a Monday: the second column of its week.
    first = driver.find_element(By.CSS_SELECTOR, 'button.day[data-day="2024-07-01"]')
    assert js("return arguments[0].parentElement.cellIndex", first) == 1
    driver.find_element(By.CSS_SELECTOR, 'button.day[data-day="2024-07-12"]').click()
    assert by_id("calendar-hint").text == "체크아웃 날짜를 선택하세요"
    after_search(lambda: driver.find_element(By.CSS_SELECTOR, 'button.day[data-day="2024-07-15"]').click(), "the stay's search")
    assert by_id("calendar-hint").text == "3박 · 7월 12일 – 7월 15일", by_id("calendar-hint").text
    driver.save_screenshot(f"{ARTEFACTS}/ko-calendar.png")
    by_id("dates-done").click()
    assert by_id("checkin-label").text == "7월 12일" and by_id("checkout-label").text == "7월 15일"
    answer = agrees_with_api("dates chosen")
    assert answer["nights"] == 3 and by_id("price-unit").text == "1박 요금, 3박 기준"


@step("ordering by recommendation shows the API's recommended order")
def recommended():
    after_search(lambda: Select(by_id("sort")).select_by_value("recommended"), "the recommended search")
    assert ("sort", "recommended") in page_query()
    assert Select(by_id("sort")).first_selected_option.text == "추천순"
    agrees_with_api("recommended")


@step("the map is drawn in Korean with won pins, and a listing quotes its total in won")
def listing():
    wait(lambda: len(driver.find_elements(By.CSS_SELECTOR, "#pins button")) == len(driver.find_elements(By.CSS_SELECTOR, "#results .card")),
         "the map's pins")
    driver.save_screenshot(f"{ARTEFACTS}/ko-results.png")
    card = driver.find_elements(By.CSS_SELECTOR, "#results .card")[0]
    listing_id = card.get_attribute("data-id")
    card.click()
    total = wait(lambda: by_id("quote-total"), "the quote")
    query = dict(page_query())
    quote = api(f"/v1/listings/{listing_id}", {k: query[k] for k in ("checkin", "checkout", "adults")})["quote"]
    assert total.text == won(quote["total_price"]), f"{total.text} vs {quote['total_price']}"
    wait(lambda: len(driver.find_elements(By.CSS_SELECTOR, "#listing-calendar caption")) == 2, "the listing's calendar")
    captions = [c.text for c in driver.find_elements(By.CSS_SELECTOR, "#listing-calendar caption")]
    assert captions[0] == "2024년 7월", captions
    driver.save_screenshot(f"{ARTEFACTS}/ko-listing.png")


@step("a week for three in Korean: the listing panel's lines (1박 요금, 장기 숙박 할인, 추가 인원 요금, 청소비, 서비스 수수료, 숙박세) are the API's quote in won")
def trip_quote():
    driver.get(BASE + "/?region=Seoul&checkin=2024-08-05&checkout=2024-08-13&adults=3&sort=rating")
    wait(lambda: js("return document.body.dataset.ready") == "true", "the search")
    agrees_with_api("a week for three")
    query = dict(page_query())
    for result in api("/v1/search", page_query() + [("limit", "20")])["results"]:
        quote = api(f"/v1/listings/{result['id']}", {k: query[k] for k in ("checkin", "checkout", "adults")})["quote"]
        if float(quote["cleaning_fee"]) > 0 and quote["length_of_stay_discount"] and quote["extra_guests"]:
            break
    else:
        raise AssertionError("no listing among the first 20 has a cleaning fee, a discount and extra guests")
    card = driver.find_element(By.CSS_SELECTOR, f'#results .card[data-id="{result["id"]}"]')
    js("arguments[0].scrollIntoView({block: 'center'})", card)
    card.click()
    wait(lambda: by_id("panel").get_attribute("data-id") == result["id"] and driver.find_elements(By.CSS_SELECTOR, "#trip tr"), "the trip's lines")
    shown = [(row.get_attribute("data-line"), [td.text for td in row.find_elements(By.TAG_NAME, "td")])
             for row in driver.find_elements(By.CSS_SELECTOR, "#trip tr")]
    d, x = quote["length_of_stay_discount"], quote["extra_guests"]
    expected = [("nightly_subtotal", None, won(quote["nightly_subtotal"])),
                ("length_of_stay_discount", f"장기 숙박 할인 ({'주' if d['kind'] == 'weekly' else '월'} {d['percent']:g}%)", "−" + won(d["amount"])),
                ("extra_guests", f"추가 인원 요금 ({x['guests']}명 × {won(x['fee_per_night'])} × 8박)", won(x["amount"])),
                ("cleaning_fee", "청소비", won(quote["cleaning_fee"]))]
    if quote["service_fee"]["percent"] > 0:
        expected.append(("service_fee", f"서비스 수수료 ({quote['service_fee']['percent']:g}%)", won(quote["service_fee"]["amount"])))
    expected.append(("trip_price", "숙박 요금 합계 (수수료 포함, 세금 별도)", won(quote["trip_price"])))
    if quote["taxes"]["percent"] > 0:
        expected.append(("taxes", f"숙박세 ({quote['taxes']['percent']:g}%)", won(quote["taxes"]["amount"])))
        expected.append(("total_with_taxes", "총 합계 (세금 포함)", won(quote["total_with_taxes"])))
    if quote["security_deposit"] is not None:
        expected.append(("security_deposit", "보증금 (청구되지 않음)", won(quote["security_deposit"])))
    assert [k for k, _ in shown] == [k for k, _, _ in expected], f"the panel's lines {[k for k, _ in shown]}, the quote's {[k for k, _, _ in expected]}"
    for (key, (label, amount)), (_, want_label, want_amount) in zip(shown, expected):
        assert amount == want_amount, f"{key}: the panel shows {amount}, the quote {want_amount}"
        assert (label.startswith("1박 요금 ₩") and label.endswith("× 8박")) if want_label is None else label == want_label, f"{key}: {label!r}"
    assert by_id("quote-total").text == won(quote["total_price"]) and quote["trip_price"] == quote["total_price"]
    driver.save_screenshot(f"{ARTEFACTS}/ko-trip-quote.png")


@step("the browser logged no errors")
def console():
    errors = [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
    assert not errors, errors


try:
    for test in [loads, region, dates, recommended, listing, trip_quote, console]:
        test()
except Exception:
    driver.save_screenshot(f"{ARTEFACTS}/ko-failure.png")
    print(f"test-browser (Korean): failed after {len(passed)} steps; screenshot in {ARTEFACTS}/ko-failure.png", file=sys.stderr)
    raise
finally:
    driver.quit()
print(f"test-browser (Korean): {len(passed)} steps passed")

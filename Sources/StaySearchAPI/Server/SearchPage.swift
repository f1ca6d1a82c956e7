/// The search page at `/`: plain HTML, CSS (`/page.css`) and JavaScript (`/page.js`) served by the binary,
/// no build step and nothing from outside the machine. It talks only to the JSON routes of the API.
///
/// The page: a search bar (a region box with suggestions from `/v1/regions`, a month-grid calendar for the
/// stay, a guests stepper), a two-thumb price slider over the histogram's bars that counts the homes in the
/// range as it moves, room-type chips, the results with nightly and total prices, the map of `/v1/map.png`
/// with its pins clickable (placed from the `X-Map-Pins` header), and a listing panel with the night-by-night
/// quote and the listing's calendar. The query lives in the address, so a search can be shared or reloaded.
package enum SearchPage {
    /// The page's icon.
    package static let icon = ##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="9" fill="#e31c5f"/><text x="16" y="23" font-family="sans-serif" font-size="20" font-weight="700" fill="#fff" text-anchor="middle">s</text></svg>"##

    /// The HTML document.
    package static let html = #"""
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>staysearch</title>
    <link rel="icon" href="/favicon.svg" type="image/svg+xml">
    <link rel="stylesheet" href="/page.css">
    <script src="/page.js" defer></script>
    </head>
    <body>
    <header class="top">
      <a class="brand" href="/" aria-label="staysearch home"><span class="brand-mark">s</span><span class="brand-name">staysearch</span></a>
      <form class="bar" id="bar" autocomplete="off" role="search">
        <div class="field where" id="where-field">
          <label for="region">Where</label>
          <input id="region" name="region" placeholder="Search destinations" spellcheck="false"
                 role="combobox" aria-autocomplete="list" aria-expanded="false" aria-controls="suggestions">
          <button type="button" class="clear" id="region-clear" aria-label="Clear destination" hidden>×</button>
          <ul class="popover suggestions" id="suggestions" role="listbox" hidden></ul>
        </div>
        <div class="field dates" id="dates-field">
          <button type="button" class="field-button" id="dates-button" aria-haspopup="dialog">
            <span class="label">Check in</span><span class="value" id="checkin-label">Add dates</span>
          </button>
          <button type="button" class="field-button" id="dates-button-out" aria-haspopup="dialog">
            <span class="label">Check out</span><span class="value" id="checkout-label">Add dates</span>
          </button>
          <div class="popover calendar-popover" id="calendar" role="dialog" aria-label="Choose dates" hidden>
            <div class="calendar-head">
              <button type="button" class="round" id="month-prev" aria-label="Previous month">‹</button>
              <p class="calendar-hint" id="calendar-hint">Select a check-in date</p>
              <button type="button" class="round" id="month-next" aria-label="Next month">›</button>
            </div>
            <div class="months" id="months"></div>
            <div class="calendar-foot">
              <div class="flex-chips" id="flexible" role="radiogroup" aria-label="Flexible dates">
                <button type="button" class="chip" data-days="0" aria-pressed="true">Exact dates</button>
                <button type="button" class="chip" data-days="1" aria-pressed="false">± 1 day</button>
                <button type="button" class="chip" data-days="3" aria-pressed="false">± 3 days</button>
                <button type="button" class="chip" data-days="7" aria-pressed="false">± 7 days</button>
              </div>
              <div class="calendar-actions">
                <button type="button" class="link" id="dates-clear">Clear dates</button>
                <button type="button" class="dark" id="dates-done">Done</button>
              </div>
            </div>
          </div>
        </div>
        <div class="field who" id="who-field">
          <button type="button" class="field-button" id="guests-button" aria-haspopup="dialog">
            <span class="label">Who</span><span class="value" id="guests-label">1 guest</span>
          </button>
          <div class="popover guests-popover" id="guests" role="dialog" aria-label="Guests" hidden>
            <div class="stepper" data-kind="adults" data-min="1" data-max="16">
              <div><strong>Adults</strong><span>Ages 13 or above</span></div>
              <button type="button" class="round minus" aria-label="Fewer adults">−</button>
              <output>1</output>
              <button type="button" class="round plus" aria-label="More adults">+</button>
            </div>
            <div class="stepper" data-kind="children" data-min="0" data-max="15">
              <div><strong>Children</strong><span>Ages 2–12</span></div>
              <button type="button" class="round minus" aria-label="Fewer children">−</button>
              <output>0</output>
              <button type="button" class="round plus" aria-label="More children">+</button>
            </div>
            <div class="stepper" data-kind="infants" data-min="0" data-max="5">
              <div><strong>Infants</strong><span>Under 2 · they do not count as guests</span></div>
              <button type="button" class="round minus" aria-label="Fewer infants">−</button>
              <output>0</output>
              <button type="button" class="round plus" aria-label="More infants">+</button>
            </div>
          </div>
        </div>
        <button type="submit" class="go" id="go" aria-label="Search"><svg viewBox="0 0 32 32" aria-hidden="true"><path d="M13 3a10 10 0 0 1 7.9 16.1l7.5 7.5-2.1 2.1-7.5-7.5A10 10 0 1 1 13 3zm0 3a7 7 0 1 0 0 14 7 7 0 0 0 0-14z"/></svg><span>Search</span></button>
      </form>
    </header>

    <section class="filters">
      <div class="price-filter">
        <div class="price-head">
          <h2>Price <span class="muted" id="price-unit">per night</span></h2>
          <p class="range-count" id="range-count" aria-live="polite"></p>
        </div>
        <div class="histogram" id="histogram" aria-hidden="true"></div>
        <div class="slider" id="slider">
          <div class="track"><div class="track-fill" id="track-fill"></div></div>
          <input type="range" id="price-low" min="0" max="1000" step="1" value="0" aria-label="Lowest price">
          <input type="range" id="price-high" min="0" max="1000" step="1" value="1000" aria-label="Highest price">
        </div>
        <div class="price-values">
          <div class="price-box"><span>Minimum</span><strong id="low-label">–</strong></div>
          <div class="price-box"><span>Maximum</span><strong id="high-label">–</strong></div>
        </div>
      </div>
      <div class="side-filters">
        <h2>Type of place</h2>
        <div class="chips" id="room-types" role="radiogroup" aria-label="Type of place"></div>
        <label class="sort">Sort by
          <select id="sort">
            <option value="price">Price: low to high</option>
            <option value="price-desc">Price: high to low</option>
            <option value="rating">Rating</option>
            <option value="reviews">Most reviewed</option>
          </select>
        </label>
      </div>
    </section>

    <p class="error" id="error" role="alert" hidden></p>

    <main class="content">
      <section class="results-column">
        <h1 class="summary" id="summary" aria-live="polite">Loading…</h1>
        <ol class="results" id="results"></ol>
        <button type="button" class="more" id="more" hidden>Show more</button>
      </section>
      <section class="map-column" aria-label="Map">
        <div class="map" id="map">
          <img id="map-image" alt="Map of the results with their prices">
          <div class="pins" id="pins"></div>
        </div>
        <p class="map-note">Every match is a dot; this page's homes carry their nightly price. Click a price to open the home.</p>
      </section>
    </main>

    <div class="scrim" id="scrim" hidden></div>
    <aside class="panel" id="panel" role="dialog" aria-modal="true" aria-labelledby="panel-title" hidden>
      <button type="button" class="round close" id="panel-close" aria-label="Close">×</button>
      <div class="panel-body">
        <p class="eyebrow" id="panel-where"></p>
        <h2 id="panel-title"></h2>
        <p class="facts" id="panel-facts"></p>
        <div class="quote" id="quote"></div>
        <h3>Availability</h3>
        <div class="listing-calendar" id="listing-calendar"></div>
      </div>
    </aside>
    <footer class="foot">staysearch · an in-memory accommodation search engine · <a href="/openapi.json">API</a> · data: Inside Airbnb (CC BY 4.0)</footer>
    </body>
    </html>

    """#
}

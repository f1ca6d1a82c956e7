"use strict";
(() => {
const $ = (id) => document.getElementById(id);
// ---- Language and currency: set by the server on <html> (serve --locale, else the browser's Accept-Language) ----
const KO = document.documentElement.lang === "ko";
const CURRENCY = /^[A-Z]{3}$/.test(document.documentElement.dataset.currency || "") ? document.documentElement.dataset.currency : "USD";
const SYMBOLS = { USD: "$", EUR: "€", GBP: "£", JPY: "¥", KRW: "₩" };
const SYMBOL = SYMBOLS[CURRENCY] || CURRENCY + " ";
const WHOLE_UNITS = CURRENCY === "KRW" || CURRENCY === "JPY";
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const SHORT = MONTHS.map((m) => m.slice(0, 3));
const WEEKDAYS = KO ? ["일", "월", "화", "수", "목", "금", "토"] : ["Su", "Mo", "Tu", "We", "Th", "Fr", "Sa"];
const PAGE = 20;

// ---- Days as whole numbers (days since 1970-01-01, UTC) ----
const dayOf = (iso) => { const [y, m, d] = iso.split("-").map(Number); return Math.round(Date.UTC(y, m - 1, d) / 864e5); };
const isoOf = (day) => new Date(day * 864e5).toISOString().slice(0, 10);
const partsOf = (day) => { const t = new Date(day * 864e5); return { y: t.getUTCFullYear(), m: t.getUTCMonth(), d: t.getUTCDate() }; };
const weekdayOf = (day) => (day + 4) % 7;
const shortDate = (day) => { const p = partsOf(day); return KO ? `${p.m + 1}월 ${p.d}일` : `${SHORT[p.m]} ${p.d}`; };
const monthTitle = (y, m) => KO ? `${y}년 ${m + 1}월` : `${MONTHS[m]} ${y}`;
const fullDate = (y, m, d) => KO ? `${y}년 ${m + 1}월 ${d}일` : `${MONTHS[m]} ${d}, ${y}`;
const validISO = (s) => typeof s === "string" && /^\d{4}-\d{2}-\d{2}$/.test(s) && isoOf(dayOf(s)) === s;

// ---- Money: whole amounts without cents, others with two decimals ----
// Won and yen are whole: no decimals, rounded half up.
const money = (v) => SYMBOL + (WHOLE_UNITS ? Math.round(v).toLocaleString("en-US") : Number.isInteger(v) ? v.toLocaleString("en-US")
  : v.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 }));
const grouped = (n) => n.toLocaleString("en-US");
const plural = (n, one, many) => `${grouped(n)} ${n === 1 ? one : many}`;
// Counted words: "3 homes" / "숙소 3곳".
const homes = (n) => KO ? `숙소 ${grouped(n)}곳` : plural(n, "home", "homes");
const nights = (n) => KO ? `${grouped(n)}박` : plural(n, "night", "nights");
const guests = (n) => KO ? `게스트 ${grouped(n)}명` : plural(n, "guest", "guests");
const infants = (n) => KO ? `유아 ${grouped(n)}명` : plural(n, "infant", "infants");
const reviews = (n) => KO ? `후기 ${grouped(n)}개` : plural(n, "review", "reviews");
const words = (en, ko) => KO ? ko : en;

/// The static text of the page in Korean: each element's `data-ko` (text), `data-ko-placeholder` and `data-ko-label`.
function translatePage() {
  if (!KO) return;
  for (const node of document.querySelectorAll("[data-ko]")) node.textContent = node.dataset.ko;
  for (const node of document.querySelectorAll("[data-ko-placeholder]")) node.placeholder = node.dataset.koPlaceholder;
  for (const node of document.querySelectorAll("[data-ko-label]")) node.setAttribute("aria-label", node.dataset.koLabel);
  document.title = "staysearch · 숙소 검색";
}

function el(tag, attributes, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key === "style") Object.assign(node.style, value);   // CSSOM: allowed by the page's strict CSP
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

// ---- State: what the query is ----
const state = {
  region: "", regionLabel: "", checkin: null, checkout: null, flexible: 0,
  adults: 1, children: 0, infants: 0, minPrice: null, maxPrice: null, roomType: "", sort: "price",
};
let span = null;          // the days that can be picked: {first, last} as day numbers (today or later)
let shown = 0;            // results on the page
let lastResult = null;    // the newest search answer
let searchSequence = 0, countSequence = 0, mapSequence = 0;
let mapURL = null;

/// The query's keys as the API takes them; `price` false leaves the price range out.
function queryParameters({ price = true } = {}) {
  const p = new URLSearchParams();
  if (state.region) p.set("region", state.region);
  if (state.checkin !== null && state.checkout !== null) {
    p.set("checkin", isoOf(state.checkin));
    p.set("checkout", isoOf(state.checkout));
    if (state.flexible > 0) p.set("flexible_days", String(state.flexible));
  }
  p.set("adults", String(state.adults));
  if (state.children > 0) p.set("children", String(state.children));
  if (state.infants > 0) p.set("infants", String(state.infants));
  if (price && state.minPrice !== null) p.set("min_price", String(state.minPrice));
  if (price && state.maxPrice !== null) p.set("max_price", String(state.maxPrice));
  if (state.roomType) p.set("room_type", state.roomType);
  if (state.sort !== "price") p.set("sort", state.sort);
  return p;
}

function readAddress() {
  const p = new URLSearchParams(location.search);
  state.region = p.get("region") || "";
  state.regionLabel = state.region.split("/").reverse().join(", ");
  const checkin = p.get("checkin"), checkout = p.get("checkout");
  if (validISO(checkin) && validISO(checkout) && dayOf(checkout) > dayOf(checkin)) {
    state.checkin = dayOf(checkin); state.checkout = dayOf(checkout);
  }
  const whole = (key, low, high, fallback) => {
    const n = Number(p.get(key));
    return p.has(key) && Number.isInteger(n) && n >= low && n <= high ? n : fallback;
  };
  state.flexible = whole("flexible_days", 0, 7, 0);
  state.adults = whole("adults", 1, 16, 1);
  state.children = whole("children", 0, 15, 0);
  state.infants = whole("infants", 0, 5, 0);
  const price = (key) => { const n = Number(p.get(key)); return p.has(key) && Number.isFinite(n) && n >= 0 ? n : null; };
  state.minPrice = price("min_price");
  state.maxPrice = price("max_price");
  state.roomType = p.get("room_type") || "";
  state.sort = ["price", "price-desc", "rating", "reviews", "recommended"].includes(p.get("sort")) ? p.get("sort") : "price";
}

function writeAddress() {
  const p = queryParameters();
  if (p.get("adults") === "1") p.delete("adults");
  const text = p.toString();
  history.replaceState(null, "", text ? `/?${text}` : "/");
}

async function getJSON(path) {
  const response = await fetch(path, { headers: { Accept: "application/json" } });
  let body = null;
  try { body = await response.json(); } catch (_) { body = null; }
  if (!response.ok) throw new Error((body && (body.message || body.error)) || `${response.status} ${response.statusText}`);
  return body;
}

function showError(message) {
  const box = $("error");
  box.textContent = message || "";
  box.hidden = !message;
}

// ---- Searching ----
async function search({ append = false } = {}) {
  const sequence = ++searchSequence;
  document.body.dataset.settled = "false";
  const p = queryParameters();
  p.set("limit", String(PAGE));
  p.set("offset", String(append ? shown : 0));
  p.set("facets", "room_type");
  writeAddress();
  let result;
  try {
    result = await getJSON(`/v1/search?${p}`);
  } catch (error) {
    if (sequence === searchSequence) { showError(error.message); searchDone(); }
    return;
  }
  if (sequence !== searchSequence) return;
  showError("");
  lastResult = result;
  if (!append) { $("results").replaceChildren(); shown = 0; }
  for (const listing of result.results) $("results").append(card(listing, result.nights));
  shown += result.results.length;
  $("more").hidden = shown >= result.total;
  renderSummary(result);
  renderHistogram(result.histogram, result.nights);
  renderRoomTypes((result.facets && result.facets.room_type) || []);
  renderRangeCount(result.total);
  drawMap();
  searchDone();
}

/// Marks the page settled (for people and for the browser tests): the newest search has its answer.
function searchDone() {
  document.body.dataset.settled = "true";
  document.body.dataset.searches = String((Number(document.body.dataset.searches) || 0) + 1);
}

function renderSummary(result) {
  const where = state.regionLabel || words("anywhere", "모든 곳");
  let text = `${homes(result.total)} · ${where}`;
  if (state.checkin !== null && state.checkout !== null) {
    text += ` · ${shortDate(state.checkin)} – ${shortDate(state.checkout)}`;
    if (state.flexible) text += ` (± ${state.flexible})`;
  }
  $("summary").textContent = text;
  $("summary").dataset.total = String(result.total);
  $("price-unit").textContent = result.nights ? words(`per night, for ${nights(result.nights)}`, `1박 요금, ${nights(result.nights)} 기준`)
    : words("per night", "1박 요금");
}

function thumbColours(id) {
  let h = 0;
  for (const c of id) h = (h * 31 + c.charCodeAt(0)) % 360;
  return `linear-gradient(135deg, hsl(${h} 45% 66%), hsl(${(h + 50) % 360} 50% 44%))`;
}

function card(listing, nights) {
  const where = [listing.neighbourhood, listing.neighbourhood_group, listing.city].filter(Boolean).join(", ");
  const rating = listing.rating === null ? el("span", { class: "stars", text: listing.reviews ? reviews(listing.reviews) : words("New", "신규") })
    : el("span", { class: "stars", text: `★ ${listing.rating.toFixed(2)} (${listing.reviews})` });
  const price = el("div", { class: "card-price" }, el("strong", { text: money(listing.nightly_price) }), words(" night", " /박"));
  if (listing.total_price !== null && listing.total_price !== undefined) {
    price.append(" · ", el("span", { class: "card-total", text: words(`${money(listing.total_price)} total`, `총액 ${money(listing.total_price)}`) }));
  }
  const stay = listing.checkin && listing.checkout && (listing.checkin !== isoOf(state.checkin) || listing.checkout !== isoOf(state.checkout))
    ? el("div", { class: "card-meta", text: `${shortDate(dayOf(listing.checkin))} – ${shortDate(dayOf(listing.checkout))}` }) : null;
  const node = el("li", { class: "card", tabindex: "0", "data-id": listing.id, "aria-label": listing.name,
      onclick: () => openListing(listing),
      onkeydown: (event) => { if (event.key === "Enter") openListing(listing); },
      onmouseenter: () => highlightPin(listing.id, true), onmouseleave: () => highlightPin(listing.id, false) },
    el("div", { class: "thumb", style: { background: thumbColours(listing.id) } }, el("span", { text: listing.room_type })),
    el("div", { class: "card-body" },
      el("div", { class: "card-top" }, el("span", { class: "card-where", text: where }), rating),
      el("div", { class: "card-name", text: listing.name }),
      el("div", { class: "card-meta", text: `${guests(listing.accommodates)}${listing.distance_km !== undefined ? ` · ${listing.distance_km} km` : ""}` }),
      stay, price));
  node.listing = listing;
  return node;
}

// ---- The price slider over the histogram ----
// The slider runs over the histogram's bins and, when some prices lie above hi, one more "hi+" step;
// the low thumb at the start means no minimum, the high thumb at the end no maximum.
const STEPS = 1000;
function scaleOf(h) {
  const segments = h.bins + (h.overflow > 0 ? 1 : 0);
  const width = (h.hi - h.lo) / h.bins;
  return { segments, width, top: h.lo + segments * width };
}
const priceAt = (h, position) => { const s = scaleOf(h); return h.lo + (position / STEPS) * (s.top - h.lo); };
const positionOf = (h, price) => { const s = scaleOf(h); return Math.max(0, Math.min(STEPS, Math.round((price - h.lo) / (s.top - h.lo) * STEPS))); };

/// The range the thumbs show: [low, high] in money, null for an open end.
function sliderRange() {
  const h = lastResult && lastResult.histogram;
  if (!h || h.count === 0) return { low: null, high: null };
  const a = Number($("price-low").value), b = Number($("price-high").value);
  // A thumb where the query's own bound put it shows that bound, not the price its position rounds to.
  const low = a <= 0 ? null : placed && placed.a === a && placed.low !== null ? placed.low : Math.floor(priceAt(h, a));
  const high = b >= STEPS ? null : placed && placed.b === b && placed.high !== null ? placed.high : Math.ceil(priceAt(h, b));
  return { low, high };
}
/// The thumbs' positions as the query's price range set them, with that range.
let placed = null;

function renderHistogram(h, nights) {
  const bars = $("histogram");
  bars.replaceChildren();
  if (!h || h.count === 0) {
    $("low-label").textContent = "–"; $("high-label").textContent = "–";
    return;
  }
  const counts = h.overflow > 0 ? [...h.counts, h.overflow] : h.counts;
  const most = Math.max(1, ...counts);
  counts.forEach((count, k) => {
    const plus = k === h.bins;
    const from = h.lo + k * (h.hi - h.lo) / h.bins, to = plus ? Infinity : h.lo + (k + 1) * (h.hi - h.lo) / h.bins;
    bars.append(el("div", { class: plus ? "bar-col plus" : "bar-col", "data-from": from, "data-to": to,
      title: plus ? `${money(h.hi)}+: ${grouped(count)}` : `${money(Math.round(from))}–${money(Math.round(to))}: ${grouped(count)}`,
      style: { height: `${count === 0 ? 0 : Math.max(4, Math.round(count / most * 100))}%` } }));
  });
  $("price-low").value = state.minPrice === null ? 0 : Math.min(positionOf(h, state.minPrice), STEPS - 1);
  $("price-high").value = state.maxPrice === null ? STEPS : Math.max(positionOf(h, state.maxPrice), 1);
  placed = { a: Number($("price-low").value), b: Number($("price-high").value), low: state.minPrice, high: state.maxPrice };
  paintSlider();
}

function paintSlider() {
  const h = lastResult && lastResult.histogram;
  const a = Number($("price-low").value), b = Number($("price-high").value);
  $("track-fill").style.left = `${a / STEPS * 100}%`;
  $("track-fill").style.right = `${100 - b / STEPS * 100}%`;
  if (!h || h.count === 0) return;
  const { low, high } = sliderRange();
  $("low-label").textContent = money(low === null ? Math.floor(h.lo) : low);
  $("high-label").textContent = high === null ? (h.overflow > 0 ? `${money(Math.ceil(h.hi))}+` : money(Math.ceil(h.hi))) : money(high);
  for (const bar of $("histogram").children) {
    const from = Number(bar.dataset.from), to = Number(bar.dataset.to);
    const inside = (low === null || to > low) && (high === null || from <= high);
    bar.classList.toggle("inside", inside);
  }
}

function renderRangeCount(total, priced = state.minPrice !== null || state.maxPrice !== null) {
  $("range-count").textContent = priced ? words(`${homes(total)} in this range`, `이 범위에 ${homes(total)}`) : homes(total);
  $("range-count").dataset.total = String(total);
}

let countTimer = null;
function sliderMoved(which) {
  const low = $("price-low"), high = $("price-high");
  if (Number(low.value) > Number(high.value) - 1) {
    if (which === "low") low.value = Number(high.value) - 1; else high.value = Number(low.value) + 1;
  }
  paintSlider();
  clearTimeout(countTimer);
  countTimer = setTimeout(countInRange, 90);
}

/// The homes in the range the thumbs show, while they move (a search of no results: only the total).
async function countInRange() {
  const sequence = ++countSequence;
  const { low, high } = sliderRange();
  const p = queryParameters({ price: false });
  if (low !== null) p.set("min_price", String(low));
  if (high !== null) p.set("max_price", String(high));
  p.set("limit", "0");
  p.set("bins", "1");
  try {
    const result = await getJSON(`/v1/search?${p}`);
    if (sequence !== countSequence) return;
    renderRangeCount(result.total, low !== null || high !== null);
  } catch (error) { showError(error.message); }
}

function sliderReleased() {
  const { low, high } = sliderRange();
  state.minPrice = low; state.maxPrice = high;
  countSequence++;
  search();
}

// ---- Room types ----
function renderRoomTypes(values) {
  const box = $("room-types");
  box.replaceChildren();
  const chip = (value, label) => el("button", { type: "button", class: "chip", "aria-pressed": String(state.roomType === value),
    "data-value": value, text: label, onclick: () => { state.roomType = value; search(); } });
  box.append(chip("", words("Any type", "모든 유형")));
  for (const facet of values) box.append(chip(facet.value, `${facet.value} · ${grouped(facet.count)}`));
  if (state.roomType && !values.some((f) => f.value === state.roomType)) box.append(chip(state.roomType, state.roomType));
}

// ---- The map: the PNG of the search, its pins made clickable from X-Map-Pins ----
const MAP_TITLE = 34;
let mapTimer = null;
function drawMap() { clearTimeout(mapTimer); mapTimer = setTimeout(fetchMap, 60); }
async function fetchMap() {
  const sequence = ++mapSequence;
  const box = $("map");
  const width = Math.max(200, Math.min(2000, Math.round(box.clientWidth)));
  const height = Math.max(150, Math.min(2000, Math.round(box.clientHeight)));
  // The PNG's title band (its top MAP_TITLE pixels) is hidden above the box: the page says what it shows.
  const scale = window.devicePixelRatio >= 1.5 ? 2 : 1;
  const p = queryParameters();
  p.set("limit", String(Math.max(1, Math.min(shown, 100))));
  p.set("width", String(width)); p.set("height", String(height + MAP_TITLE)); p.set("scale", String(scale));
  p.set("locale", KO ? "ko" : "en"); p.set("currency", CURRENCY);
  try {
    const response = await fetch(`/v1/map.png?${p}`);
    if (!response.ok) return;
    const pins = response.headers.get("X-Map-Pins") || "";
    const view = (response.headers.get("X-Map-View") || "").split(",").map(Number);
    const blob = await response.blob();
    if (sequence !== mapSequence) return;
    if (mapURL) URL.revokeObjectURL(mapURL);
    mapURL = URL.createObjectURL(blob);
    $("map-image").src = mapURL;
    placePins(pins, width, height);
    drawOutlines(view, width, height);
    document.body.dataset.maps = String((Number(document.body.dataset.maps) || 0) + 1);
  } catch (_) { /* the map is a picture beside the results; the results stand without it */ }
}

// ---- The neighbourhoods' outlines (GET /v1/neighbourhoods.geojson) over the map, each one a search ----
let neighbourhoods = [];
async function loadNeighbourhoods() {
  try { neighbourhoods = (await getJSON("/v1/neighbourhoods.geojson")).features || []; } catch (_) { neighbourhoods = []; }
}
// The map's projection is linear in longitude and latitude between its edges (X-Map-View: south,west,north,east
// of the whole picture, whose top MAP_TITLE pixels are hidden above the box).
function drawOutlines(view, width, height) {
  const svg = $("outlines");
  svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  if (view.length !== 4 || view.some((v) => !Number.isFinite(v))) return;
  const [south, west, north, east] = view;
  const x = (lon) => ((west > 180 && lon < 0 ? lon + 360 : lon) - west) / (east - west) * width;
  const y = (lat) => (north - lat) / (north - south) * (height + MAP_TITLE) - MAP_TITLE;
  const chosen = state.region.toLowerCase();
  for (const feature of neighbourhoods) {
    const { city, name } = feature.properties || {};
    const rings = (feature.geometry && feature.geometry.coordinates) || [];
    const d = rings.map((ring) => ring.map(([lon, lat], k) => `${k ? "L" : "M"}${x(lon).toFixed(1)} ${y(lat).toFixed(1)}`).join("") + "Z").join("");
    const group = document.createElementNS("http://www.w3.org/2000/svg", "g");
    group.setAttribute("class", `${city}/${name}`.toLowerCase() === chosen || (name || "").toLowerCase() === chosen ? "chosen" : "");
    group.dataset.region = `${city}/${name}`;
    const title = document.createElementNS("http://www.w3.org/2000/svg", "title");
    title.textContent = name;
    const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
    path.setAttribute("d", d);
    group.append(title, path);
    group.addEventListener("click", () => {
      state.region = `${city}/${name}`;
      state.regionLabel = `${name}, ${city}`;
      $("region").value = state.regionLabel;
      $("region-clear").hidden = false;
      state.minPrice = null; state.maxPrice = null;
      search();
    });
    svg.append(group);
  }
  document.body.dataset.outlines = String(neighbourhoods.length);
}

function placePins(header, width, height) {
  const layer = $("pins");
  layer.replaceChildren();
  const byId = new Map(lastResult ? lastResult.results.map((r) => [r.id, r]) : []);
  for (const item of header.split(" ").filter(Boolean)) {
    const [id, at] = item.split("@");
    const [x, y] = at.split(",").map(Number);
    const listing = byId.get(id) || [...$("results").children].map((c) => c.listing).find((l) => l && l.id === id);
    layer.append(el("button", { type: "button", "data-id": id, "aria-label": words(`Open listing ${id}`, `숙소 ${id} 열기`),
      style: { left: `${x / width * 100}%`, top: `${(y - MAP_TITLE) / height * 100}%` },
      onclick: () => openListing(listing || { id }) }));
  }
}

function highlightPin(id, on) {
  for (const pin of $("pins").querySelectorAll(`[data-id="${CSS.escape(id)}"]`)) pin.classList.toggle("hot", on);
}

// ---- The region box ----
let suggestTimer = null, suggestSequence = 0, suggestions = [], active = -1;
function regionTyped() {
  $("region-clear").hidden = $("region").value === "";
  clearTimeout(suggestTimer);
  suggestTimer = setTimeout(suggest, 80);
}
async function suggest() {
  const sequence = ++suggestSequence;
  const prefix = $("region").value.trim();
  let list;
  try { list = await getJSON(`/v1/regions?${new URLSearchParams({ prefix, limit: "8" })}`); } catch (_) { return; }
  if (sequence !== suggestSequence) return;
  suggestions = list; active = -1;
  const box = $("suggestions");
  box.replaceChildren();
  if (list.length === 0) box.append(el("li", { class: "empty", text: words(`No region matches “${prefix}”`, `“${prefix}”에 맞는 지역이 없습니다`) }));
  list.forEach((s, k) => {
    const name = s.path[s.path.length - 1];
    const parents = s.path.slice(0, -1).reverse().join(", ");
    box.append(el("li", { role: "option", id: `suggestion-${k}`, "aria-selected": "false", "data-path": s.path.join("/"),
        onmousedown: (event) => { event.preventDefault(); pick(k); } },
      el("span", { class: "pin" }, svgPin()),
      el("span", {}, el("div", { class: "name", text: name }), parents ? el("div", { class: "path", text: parents }) : null),
      el("span", { class: "count", text: homes(s.listings) })));
  });
  box.hidden = false;
  $("region").setAttribute("aria-expanded", "true");
}
function svgPin() {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
  path.setAttribute("d", "M12 2a7 7 0 0 1 7 7c0 5-7 13-7 13S5 14 5 9a7 7 0 0 1 7-7zm0 4a3 3 0 1 0 0 6 3 3 0 0 0 0-6z");
  svg.append(path);
  return svg;
}
function closeSuggestions() { $("suggestions").hidden = true; $("region").setAttribute("aria-expanded", "false"); }
function pick(k) {
  const s = suggestions[k];
  if (!s) return;
  state.region = s.path.join("/");
  state.regionLabel = [...s.path].reverse().join(", ");
  $("region").value = state.regionLabel;
  $("region-clear").hidden = false;
  closeSuggestions();
  state.minPrice = null; state.maxPrice = null;
  search();
}
function regionKey(event) {
  const items = [...$("suggestions").querySelectorAll("li[role=option]")];
  if (event.key === "ArrowDown" || event.key === "ArrowUp") {
    event.preventDefault();
    if ($("suggestions").hidden) { suggest(); return; }
    active = (active + (event.key === "ArrowDown" ? 1 : -1) + items.length) % Math.max(1, items.length);
    items.forEach((item, k) => item.setAttribute("aria-selected", String(k === active)));
    if (items[active]) $("region").setAttribute("aria-activedescendant", items[active].id);
  } else if (event.key === "Enter") {
    event.preventDefault();
    if (!$("suggestions").hidden && active >= 0) pick(active);
    else submit();
  } else if (event.key === "Escape") {
    closeSuggestions();
  }
}

// ---- The calendar ----
let firstShownMonth = null;   // {y, m}
let picking = "in", hoverDay = null;
const monthStart = (y, m) => Math.round(Date.UTC(y, m, 1) / 864e5);
const addMonths = ({ y, m }, k) => ({ y: y + Math.floor((m + k) / 12), m: ((m + k) % 12 + 12) % 12 });

function openCalendar(mode) {
  closePopovers("calendar");
  picking = mode === "out" && state.checkin !== null ? "out" : "in";
  const anchor = state.checkin !== null ? state.checkin : span ? span.first : dayOf(new Date().toISOString().slice(0, 10));
  const p = partsOf(anchor);
  firstShownMonth = { y: p.y, m: p.m };
  $("calendar").hidden = false;
  $("dates-button").classList.add("open");
  renderCalendar();
}

function dayEnabled(day) {
  // Any day of the calendars can start a stay (an earlier one while choosing the check-out starts over);
  // the day after the last can only end one.
  if (!span) return true;
  if (day < span.first || day > span.last + 1) return false;
  return day <= span.last || (picking === "out" && state.checkin !== null);
}

function renderCalendar() {
  const months = $("months");
  months.replaceChildren();
  for (let k = 0; k < 2; k++) {
    const { y, m } = addMonths(firstShownMonth, k);
    const start = monthStart(y, m), end = monthStart(addMonths({ y, m }, 1).y, addMonths({ y, m }, 1).m);
    const table = el("table", { role: "grid" });
    table.append(el("thead", {}, el("tr", {}, ...WEEKDAYS.map((w) => el("th", { text: w, scope: "col" })))));
    const body = el("tbody");
    let row = el("tr");
    for (let blank = 0; blank < weekdayOf(start); blank++) row.append(el("td"));
    for (let day = start; day < end; day++) {
      if (row.children.length === 7) { body.append(row); row = el("tr"); }
      const cell = el("td");
      cell.append(el("button", { type: "button", class: "day", "data-day": isoOf(day),
        "aria-label": fullDate(y, m, day - start + 1),
        onclick: () => chooseDay(day),
        onmouseenter: () => { if (picking === "out") { hoverDay = day; paintCalendar(); } } },
        el("span", { class: "day-number", text: String(day - start + 1) }), el("span", { class: "day-price" })));
      row.append(cell);
    }
    while (row.children.length < 7) row.append(el("td"));
    body.append(row);
    table.append(body);
    months.append(el("div", { class: "month" }, el("h3", { text: monthTitle(y, m) }), table));
  }
  const first = span ? partsOf(span.first) : null, last = span ? partsOf(span.last + 1) : null;
  $("month-prev").disabled = !!first && (firstShownMonth.y * 12 + firstShownMonth.m) <= first.y * 12 + first.m;
  $("month-next").disabled = !!last && (firstShownMonth.y * 12 + firstShownMonth.m + 1) >= last.y * 12 + last.m;
  paintCalendar();
  loadDayPrices();
}

// ---- The price calendar: once a region is chosen, each check-in day's lowest total for the nights chosen
// (3 before a stay is), and the days from which nothing can be booked greyed out ----
let priceSequence = 0;
const CALENDAR_NIGHTS = 3;
const calendarNights = () => state.checkin !== null && state.checkout !== null ? state.checkout - state.checkin : CALENDAR_NIGHTS;
/// A day's lowest total in a day cell: whole units, thousands as "k" from ten thousand (won and yen whole).
const dayPrice = (v) => SYMBOL + (!WHOLE_UNITS && v >= 10000 ? `${Math.round(v / 1000)}k` : Math.round(v).toLocaleString("en-US"));

async function loadDayPrices() {
  const sequence = ++priceSequence, months = $("months");
  const buttons = [...months.querySelectorAll("button.day")];
  const clear = () => {
    for (const button of buttons) {
      button.querySelector(".day-price").textContent = "";
      button.classList.remove("no-stays");
      delete button.dataset.count;
    }
  };
  if (!state.region || buttons.length === 0) { clear(); months.dataset.prices = "none"; return; }
  months.dataset.prices = "loading";
  const p = queryParameters();
  for (const key of ["checkin", "checkout", "flexible_days", "sort"]) p.delete(key);
  p.set("checkin_from", buttons[0].dataset.day);
  p.set("checkin_to", buttons[buttons.length - 1].dataset.day);
  p.set("nights", String(calendarNights()));
  let calendar;
  try { calendar = await getJSON(`/v1/price-calendar?${p}`); } catch (_) { if (sequence === priceSequence) { clear(); months.dataset.prices = "failed"; } return; }
  if (sequence !== priceSequence) return;
  const byDay = new Map(calendar.days.map((d) => [d.checkin, d]));
  for (const button of buttons) {
    const d = byDay.get(button.dataset.day);
    if (!d) continue;
    button.querySelector(".day-price").textContent = d.lowest_total === null ? "" : dayPrice(d.lowest_total);
    button.classList.toggle("no-stays", d.status === "open" && d.count === 0);
    button.dataset.count = String(d.count);
    const label = button.getAttribute("aria-label").split(" · ")[0];
    button.setAttribute("aria-label", d.lowest_total === null ? label
      : `${label} · ${words(`${homes(d.count)} from ${money(d.lowest_total)}`, `${homes(d.count)}, ${money(d.lowest_total)}부터`)}`);
  }
  months.dataset.prices = "ready";
  months.dataset.pricesNights = String(calendar.nights);
}

/// The chosen days, the range between them (or up to the day under the pointer) and which days can be
/// chosen now, painted on the month grid in place (no new buttons: a click is never lost to a redraw).
function paintCalendar() {
  const rangeEnd = state.checkout !== null ? state.checkout
    : (picking === "out" && hoverDay !== null && state.checkin !== null && hoverDay > state.checkin ? hoverDay : null);
  for (const button of $("months").querySelectorAll("button.day")) {
    const day = dayOf(button.dataset.day), cell = button.parentElement;
    const inRange = state.checkin !== null && rangeEnd !== null && day >= state.checkin && day <= rangeEnd;
    cell.classList.toggle("in-range", inRange);
    cell.classList.toggle("range-start", inRange && day === state.checkin);
    cell.classList.toggle("range-end", inRange && day === rangeEnd);
    const chosen = day === state.checkin || day === state.checkout;
    button.classList.toggle("chosen", chosen);
    button.setAttribute("aria-pressed", String(chosen));
    button.disabled = !dayEnabled(day);
  }
  let hint = picking === "in" ? words("Select a check-in date", "체크인 날짜를 선택하세요")
    : words("Select a check-out date", "체크아웃 날짜를 선택하세요");
  if (state.checkin !== null && state.checkout !== null) {
    hint = `${nights(state.checkout - state.checkin)} · ${shortDate(state.checkin)} – ${shortDate(state.checkout)}`;
  }
  $("calendar-hint").textContent = hint;
  for (const chip of $("flexible").children) chip.setAttribute("aria-pressed", String(Number(chip.dataset.days) === state.flexible));
}

function chooseDay(day) {
  if (picking === "in" || state.checkin === null || day <= state.checkin) {
    state.checkin = day; state.checkout = null; picking = "out";
  } else {
    state.checkout = day; picking = "in";
  }
  hoverDay = null;
  renderDates();
  paintCalendar();
  if (state.checkout !== null) { state.minPrice = null; state.maxPrice = null; search(); loadDayPrices(); }
}

function renderDates() {
  const set = (id, day) => {
    $(id).textContent = day === null ? words("Add dates", "날짜 추가") : shortDate(day);
    $(id).classList.toggle("set", day !== null);
  };
  set("checkin-label", state.checkin);
  set("checkout-label", state.checkout);
  if (state.flexible && state.checkout !== null) $("checkout-label").textContent += ` ± ${state.flexible}`;
}

// ---- Guests ----
function renderGuests() {
  for (const stepper of document.querySelectorAll(".stepper")) {
    const kind = stepper.dataset.kind, value = state[kind];
    stepper.querySelector("output").textContent = String(value);
    stepper.querySelector(".minus").disabled = value <= Number(stepper.dataset.min);
    stepper.querySelector(".plus").disabled = value >= Number(stepper.dataset.max);
  }
  const count = state.adults + state.children;
  let label = guests(count);
  if (state.infants) label += `, ${infants(state.infants)}`;
  $("guests-label").textContent = label;
  $("guests-label").classList.toggle("set", count > 1 || state.infants > 0);
}
let guestTimer = null;
function step(kind, by) {
  const stepper = document.querySelector(`.stepper[data-kind="${kind}"]`);
  state[kind] = Math.max(Number(stepper.dataset.min), Math.min(Number(stepper.dataset.max), state[kind] + by));
  renderGuests();
  clearTimeout(guestTimer);
  guestTimer = setTimeout(() => search(), 150);
}

// ---- The listing panel ----
let panelListing = null, panelMonth = null;
async function openListing(listing) {
  panelListing = listing;
  const p = new URLSearchParams();
  const checkin = listing.checkin || (state.checkin !== null ? isoOf(state.checkin) : null);
  const checkout = listing.checkout || (state.checkout !== null ? isoOf(state.checkout) : null);
  if (checkin && checkout) { p.set("checkin", checkin); p.set("checkout", checkout); }
  p.set("adults", String(state.adults));
  if (state.children) p.set("children", String(state.children));
  if (state.infants) p.set("infants", String(state.infants));
  $("panel").hidden = false; $("scrim").hidden = false;
  document.body.style.overflow = "hidden";
  $("panel-title").textContent = listing.name || "…";
  $("quote").replaceChildren(el("p", { class: "muted", text: words("Loading…", "불러오는 중…") }));
  $("listing-calendar").replaceChildren();
  $("panel-close").focus();
  let full;
  try { full = await getJSON(`/v1/listings/${encodeURIComponent(listing.id)}?${p}`); }
  catch (error) { $("quote").replaceChildren(el("p", { class: "reasons", text: error.message })); return; }
  if (panelListing !== listing) return;
  $("panel").dataset.id = full.id;
  $("panel-where").textContent = [full.neighbourhood, full.neighbourhood_group, full.city].filter(Boolean).join(", ");
  $("panel-title").textContent = full.name;
  const facts = [full.room_type, guests(full.accommodates)];
  if (full.rating !== null) facts.push(`★ ${full.rating.toFixed(2)}`);
  facts.push(reviews(full.reviews));
  $("panel-facts").textContent = facts.join(" · ");
  renderQuote(full);
  const anchor = checkin ? dayOf(checkin) : span ? span.first : null;
  panelMonth = anchor === null ? null : { y: partsOf(anchor).y, m: partsOf(anchor).m };
  loadListingCalendar(full, checkin, checkout);
}

function renderQuote(full) {
  const box = $("quote");
  box.replaceChildren();
  const q = full.quote;
  if (!q) {
    box.append(el("div", { class: "quote-head" }, el("span", {}, el("strong", { text: money(full.nightly_price) }), words(" night", " /박")),
      el("span", { class: "muted", text: words("Add dates for the total", "총액을 보려면 날짜를 추가하세요") })));
    return;
  }
  const count = q.nights.length;
  const head = el("div", { class: "quote-head" },
    el("span", {}, el("strong", { id: "quote-total", text: q.total_price === null ? "–" : money(q.total_price) }),
      words(` for ${nights(count)}`, ` · ${nights(count)}`)),
    el("span", { class: q.bookable ? "badge ok" : "badge no", text: q.bookable ? words("Bookable", "예약 가능") : words("Not bookable", "예약 불가") }));
  const rows = q.nights.map((night) => el("tr", { class: night.available ? "" : "closed" },
    el("td", { text: `${WEEKDAYS[weekdayOf(dayOf(night.date))]} ${shortDate(dayOf(night.date))}` }),
    el("td", { text: night.available ? "" : (KO ? "예약 불가" : (night.status || "unavailable")) }),
    el("td", { text: night.price === null ? words("no price", "가격 없음") : money(night.price) })));
  const table = el("table", {}, el("tbody", {}, ...rows));
  const totals = q.trip_price !== undefined && q.total_price !== null ? el("table", { id: "trip" }, el("tbody", {}, ...tripRows(q, count)))
    : el("table", {}, el("tbody", {},
      q.nightly_price === null ? null : el("tr", {}, el("td", { text: words("Nightly price", "1박 요금") }), el("td", { text: money(q.nightly_price) })),
      el("tr", { class: "total" }, el("td", { text: words("Total", "총액") }), el("td", { text: q.total_price === null ? "–" : money(q.total_price) }))));
  box.append(head, el("div", { class: "nights-scroll" }, table), totals);
  if (q.reasons && q.reasons.length) box.append(el("ul", { class: "reasons" }, ...q.reasons.map((r) => el("li", { text: r }))));
}

/// The quote's lines of a trip price, as `listing` prints them: the nights, a length-of-stay discount, extra
/// guests, the cleaning fee, the service fee, the trip price, taxes and the deposit. Each row names its quote
/// key in `data-line`.
function tripRows(q, count) {
  const rows = [];
  const line = (key, label, value, total) => rows.push(el("tr", { "data-line": key, class: total ? "total" : null },
    el("td", { text: label }), el("td", { text: value })));
  const percent = (p) => KO ? `${p}%` : `${p} %`;
  const average = money(Math.round(q.nightly_subtotal * 100 / count) / 100);
  line("nightly_subtotal", words(`${average} × ${nights(count)}`, `1박 요금 ${average} × ${count}박`), money(q.nightly_subtotal));
  const d = q.length_of_stay_discount;
  if (d) line("length_of_stay_discount", words(`${d.kind === "weekly" ? "Weekly" : "Monthly"} discount (${percent(d.percent)})`,
    `장기 숙박 할인 (${d.kind === "weekly" ? "주" : "월"} ${percent(d.percent)})`), "−" + money(d.amount));
  const x = q.extra_guests;
  if (x) line("extra_guests", words(`Extra guests (${x.guests} × ${money(x.fee_per_night)} × ${count})`,
    `추가 인원 요금 (${x.guests}명 × ${money(x.fee_per_night)} × ${count}박)`), money(x.amount));
  if (q.cleaning_fee > 0) line("cleaning_fee", words("Cleaning fee", "청소비"), money(q.cleaning_fee));
  if (q.service_fee.percent > 0) line("service_fee", words(`Service fee (${percent(q.service_fee.percent)})`,
    `서비스 수수료 (${percent(q.service_fee.percent)})`), money(q.service_fee.amount));
  line("trip_price", words("Trip price (all fees, before taxes)", "숙박 요금 합계 (수수료 포함, 세금 별도)"), money(q.trip_price), true);
  if (q.taxes.percent > 0) {
    line("taxes", words(`Taxes (${percent(q.taxes.percent)})`, `숙박세 (${percent(q.taxes.percent)})`), money(q.taxes.amount));
    line("total_with_taxes", words("Total with taxes", "총 합계 (세금 포함)"), money(q.total_with_taxes), true);
  }
  if (q.security_deposit !== null) line("security_deposit", words("Security deposit (not charged)", "보증금 (청구되지 않음)"), money(q.security_deposit));
  return rows;
}

async function loadListingCalendar(full, checkin, checkout) {
  const box = $("listing-calendar");
  if (!panelMonth) return;
  const month = `${panelMonth.y}-${String(panelMonth.m + 1).padStart(2, "0")}`;
  let calendar;
  try { calendar = await getJSON(`/v1/listings/${encodeURIComponent(full.id)}/calendar?month=${month}&months=2`); }
  catch (error) { box.replaceChildren(el("p", { class: "reasons", text: error.message })); return; }
  if (!panelListing || panelListing.id !== full.id) return;
  const stayFrom = checkin ? dayOf(checkin) : null, stayTo = checkout ? dayOf(checkout) : null;
  box.replaceChildren();
  for (const m of calendar.months) {
    const [y, mm] = m.month.split("-").map(Number);
    const table = el("table", {}, el("caption", { text: monthTitle(y, mm - 1) }),
      el("thead", {}, el("tr", {}, ...WEEKDAYS.map((w) => el("th", { text: w })))));
    const body = el("tbody");
    let row = el("tr");
    const start = monthStart(y, mm - 1);
    for (let blank = 0; blank < weekdayOf(start); blank++) row.append(el("td"));
    for (const d of m.days) {
      if (row.children.length === 7) { body.append(row); row = el("tr"); }
      const day = dayOf(d.date);
      const inStay = stayFrom !== null && day >= stayFrom && day < stayTo;
      row.append(el("td", { class: inStay ? "stay" : d.available ? "open" : "shut", title: d.status || "" },
        String(day - start + 1), el("small", { text: d.price === null ? " " : money(Math.round(d.price)) })));
    }
    while (row.children.length < 7) row.append(el("td"));
    body.append(row);
    table.append(body);
    box.append(table);
  }
}

function closePanel() {
  $("panel").hidden = true; $("scrim").hidden = true; panelListing = null;
  document.body.style.overflow = "";
}

// ---- Popovers and the form ----
function closePopovers(except) {
  if (except !== "calendar") { $("calendar").hidden = true; $("dates-button").classList.remove("open"); }
  if (except !== "guests") { $("guests").hidden = true; $("guests-button").classList.remove("open"); }
  if (except !== "suggestions") closeSuggestions();
}

function submit() {
  const typed = $("region").value.trim();
  if (typed !== state.regionLabel) { state.region = typed; state.regionLabel = typed; }
  closePopovers();
  search();
}

function wire() {
  $("bar").addEventListener("submit", (event) => { event.preventDefault(); submit(); });
  $("region").addEventListener("input", regionTyped);
  $("region").addEventListener("focus", () => { closePopovers("suggestions"); suggest(); });
  $("region").addEventListener("keydown", regionKey);
  $("region").addEventListener("blur", () => setTimeout(closeSuggestions, 120));
  $("region-clear").addEventListener("click", () => {
    $("region").value = ""; state.region = ""; state.regionLabel = ""; $("region-clear").hidden = true;
    state.minPrice = null; state.maxPrice = null; search(); $("region").focus();
  });
  $("dates-button").addEventListener("click", () => $("calendar").hidden ? openCalendar("in") : closePopovers());
  $("dates-button-out").addEventListener("click", () => openCalendar("out"));
  $("month-prev").addEventListener("click", () => { firstShownMonth = addMonths(firstShownMonth, -1); renderCalendar(); });
  $("month-next").addEventListener("click", () => { firstShownMonth = addMonths(firstShownMonth, 1); renderCalendar(); });
  $("months").addEventListener("mouseleave", () => { if (hoverDay !== null) { hoverDay = null; paintCalendar(); } });
  $("dates-clear").addEventListener("click", () => {
    state.checkin = null; state.checkout = null; picking = "in"; state.minPrice = null; state.maxPrice = null;
    renderDates(); renderCalendar(); search();
  });
  $("dates-done").addEventListener("click", () => closePopovers());
  for (const chip of $("flexible").children) {
    chip.addEventListener("click", () => {
      state.flexible = Number(chip.dataset.days);
      renderCalendar(); renderDates();
      if (state.checkout !== null) search();
    });
  }
  $("guests-button").addEventListener("click", () => {
    const open = $("guests").hidden;
    closePopovers(open ? "guests" : undefined);
    $("guests").hidden = !open;
    $("guests-button").classList.toggle("open", open);
  });
  for (const stepper of document.querySelectorAll(".stepper")) {
    stepper.querySelector(".minus").addEventListener("click", () => step(stepper.dataset.kind, -1));
    stepper.querySelector(".plus").addEventListener("click", () => step(stepper.dataset.kind, 1));
  }
  $("price-low").addEventListener("input", () => sliderMoved("low"));
  $("price-high").addEventListener("input", () => sliderMoved("high"));
  $("price-low").addEventListener("change", sliderReleased);
  $("price-high").addEventListener("change", sliderReleased);
  $("sort").addEventListener("change", () => { state.sort = $("sort").value; search(); });
  $("more").addEventListener("click", () => search({ append: true }));
  $("panel-close").addEventListener("click", closePanel);
  $("scrim").addEventListener("click", closePanel);
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") { if (!$("panel").hidden) closePanel(); else closePopovers(); }
  });
  document.addEventListener("mousedown", (event) => {
    if (!event.target.closest(".dates")) { if (!$("calendar").hidden) closePopovers(); }
    if (!event.target.closest(".who")) { $("guests").hidden = true; $("guests-button").classList.remove("open"); }
  });
  let resizeTimer = null;
  window.addEventListener("resize", () => { clearTimeout(resizeTimer); resizeTimer = setTimeout(drawMap, 200); });
}

async function start() {
  translatePage();
  readAddress();
  wire();
  $("region").value = state.regionLabel;
  $("region-clear").hidden = !state.region;
  $("sort").value = state.sort;
  renderDates();
  renderGuests();
  await loadNeighbourhoods();
  try {
    const info = await getJSON("/v1/index");
    // Days before today cannot be picked: the calendar starts at the later of today and the data's first day.
    span = { first: Math.max(dayOf(info.calendar.first), info.today ? dayOf(info.today) : -Infinity), last: dayOf(info.calendar.last) };
  } catch (error) { showError(error.message); }
  await search();
  document.body.dataset.ready = "true";
}
start();
})();

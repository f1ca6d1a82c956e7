extension SearchPage {
    /// The style sheet: one column on phones, results beside a sticky map from 960 px.
    package static let style = #"""
    :root {
      --ink: #222; --muted: #6a6a6a; --line: #dddddd; --soft: #f7f7f7; --accent: #e31c5f; --accent-dark: #c2134f;
      --range: #222; --bar: #d4d4d4; --radius: 14px; --shadow: 0 6px 20px rgba(0,0,0,.12);
      font-family: "DejaVu Sans", -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif;
      color: var(--ink); font-size: 14px; line-height: 1.4;
    }
    * { box-sizing: border-box; }
    body { margin: 0; background: #fff; }
    button, input, select { font: inherit; color: inherit; }
    button { cursor: pointer; }
    [hidden] { display: none !important; }
    h1, h2, h3 { margin: 0; }
    .muted { color: var(--muted); font-weight: 400; }

    /* The search bar */
    .top { position: sticky; top: 0; z-index: 20; background: #fff; border-bottom: 1px solid var(--line);
           display: flex; align-items: center; gap: 24px; padding: 14px 32px; }
    .brand { display: flex; align-items: center; gap: 8px; text-decoration: none; color: var(--accent); font-weight: 700; font-size: 20px; }
    .brand-mark { display: grid; place-items: center; width: 32px; height: 32px; border-radius: 10px; background: var(--accent); color: #fff; }
    .bar { flex: 1; max-width: 860px; margin: 0 auto; display: flex; align-items: stretch; border: 1px solid var(--line);
           border-radius: 40px; box-shadow: 0 2px 8px rgba(0,0,0,.08); background: #fff; position: relative; }
    .field { position: relative; display: flex; min-width: 0; }
    .field + .field::before { content: ""; align-self: center; height: 32px; border-left: 1px solid var(--line); }
    .where { flex: 1.4; flex-direction: column; justify-content: center; padding: 10px 12px 10px 28px; border-radius: 40px; }
    .where:focus-within, .field-button:focus-visible, .field-button.open { background: var(--soft); }
    .where label, .field-button .label { font-size: 12px; font-weight: 700; }
    .where input { border: 0; outline: 0; padding: 2px 24px 0 0; background: transparent; width: 100%; text-overflow: ellipsis; }
    .where input::placeholder { color: var(--muted); }
    .clear { position: absolute; right: 12px; top: 50%; transform: translateY(-50%); border: 0; background: #ebebeb; border-radius: 50%;
             width: 22px; height: 22px; line-height: 20px; padding: 0; font-size: 15px; }
    .dates { flex: 1.5; }
    .who { flex: 1.25; }
    .field-button { flex: 1; border: 0; background: transparent; text-align: left; display: flex; flex-direction: column;
                    justify-content: center; padding: 10px 16px 10px 22px; border-radius: 40px; min-width: 0; }
    .field-button .value { color: var(--muted); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; max-width: 100%; }
    .field-button .value.set { color: var(--ink); font-weight: 600; }
    .go { align-self: center; margin: 6px 8px 6px 4px; border: 0; border-radius: 30px; background: var(--accent); color: #fff;
          display: flex; align-items: center; gap: 8px; padding: 12px 18px; font-weight: 700; }
    .go:hover { background: var(--accent-dark); }
    .go svg { width: 16px; height: 16px; fill: #fff; }

    .popover { position: absolute; top: calc(100% + 12px); background: #fff; border-radius: 24px; box-shadow: var(--shadow);
               border: 1px solid #eee; z-index: 30; }
    .suggestions { left: 0; width: min(420px, 92vw); list-style: none; margin: 0; padding: 12px 0; }
    .suggestions li { display: flex; align-items: center; gap: 14px; padding: 10px 24px; cursor: pointer; }
    .suggestions li[aria-selected="true"], .suggestions li:hover { background: var(--soft); }
    .suggestions .pin { display: grid; place-items: center; flex: none; width: 40px; height: 40px; border-radius: 10px; background: #ebebeb; }
    .suggestions .pin svg { width: 18px; height: 18px; fill: var(--ink); }
    .suggestions .name { font-weight: 600; }
    .suggestions .path { color: var(--muted); font-size: 13px; }
    .suggestions .count { margin-left: auto; color: var(--muted); font-size: 13px; white-space: nowrap; }
    .suggestions .empty { color: var(--muted); cursor: default; }

    .calendar-popover { left: 50%; transform: translateX(-50%); width: 700px; max-width: 96vw; padding: 24px 28px 18px; }
    .calendar-head { display: flex; align-items: center; justify-content: space-between; }
    .calendar-hint { margin: 0; font-weight: 600; }
    .months { display: grid; grid-template-columns: 1fr 1fr; gap: 36px; margin-top: 10px; }
    .month h3 { text-align: center; font-size: 15px; margin: 6px 0 12px; }
    .month table { width: 100%; border-collapse: collapse; table-layout: fixed; }
    .month th { font-size: 12px; color: var(--muted); font-weight: 600; padding-bottom: 6px; }
    .month td { padding: 1px 0; text-align: center; }
    .day { width: 42px; height: 42px; border: 0; border-radius: 50%; background: transparent; font-weight: 600; font-size: 13px; }
    .day:hover:not(:disabled) { outline: 1.5px solid var(--ink); }
    .day:disabled { color: #c4c4c4; text-decoration: line-through; cursor: default; }
    td.in-range { background: var(--soft); }
    td.range-start { background: linear-gradient(90deg, transparent 50%, var(--soft) 50%); }
    td.range-end { background: linear-gradient(90deg, var(--soft) 50%, transparent 50%); }
    td.range-start.range-end { background: transparent; }
    .day.chosen { background: var(--ink); color: #fff; }
    .calendar-foot { display: flex; flex-wrap: wrap; gap: 12px; align-items: center; justify-content: space-between; margin-top: 16px;
                     border-top: 1px solid var(--line); padding-top: 14px; }
    .flex-chips, .chips { display: flex; flex-wrap: wrap; gap: 8px; }
    .chip { border: 1px solid var(--line); background: #fff; border-radius: 30px; padding: 7px 14px; font-size: 13px; }
    .chip:hover { border-color: var(--ink); }
    .chip[aria-pressed="true"] { border: 1.5px solid var(--ink); background: var(--soft); font-weight: 600; }
    .calendar-actions { display: flex; gap: 14px; align-items: center; margin-left: auto; }
    .link { border: 0; background: none; text-decoration: underline; font-weight: 600; padding: 6px; }
    .dark { border: 0; background: var(--ink); color: #fff; border-radius: 10px; padding: 10px 22px; font-weight: 600; }
    .round { width: 34px; height: 34px; border-radius: 50%; border: 1px solid #b0b0b0; background: #fff; font-size: 18px; line-height: 1;
             display: grid; place-items: center; padding: 0; }
    .round:disabled { opacity: .3; cursor: not-allowed; }
    .round:hover:not(:disabled) { border-color: var(--ink); }

    .guests-popover { right: 0; width: 380px; max-width: 94vw; padding: 8px 28px; }
    .stepper { display: flex; align-items: center; gap: 14px; padding: 16px 0; }
    .stepper + .stepper { border-top: 1px solid var(--line); }
    .stepper > div { flex: 1; display: flex; flex-direction: column; }
    .stepper span { color: var(--muted); font-size: 13px; }
    .stepper output { min-width: 20px; text-align: center; }

    /* Filters: the price slider over the histogram, room types, sort */
    .filters { display: grid; grid-template-columns: minmax(0, 1.5fr) minmax(0, 1fr); gap: 40px; padding: 22px 32px 6px; max-width: 1440px; margin: 0 auto; }
    .filters h2 { font-size: 16px; }
    .price-head { display: flex; justify-content: space-between; align-items: baseline; gap: 12px; }
    .range-count { margin: 0; color: var(--muted); }
    .histogram { display: flex; align-items: flex-end; gap: 2px; height: 64px; margin: 14px 11px 0; }
    .histogram .bar-col { flex: 1; background: var(--bar); border-radius: 3px 3px 0 0; min-height: 1px; transition: background .15s; }
    .histogram .bar-col.inside { background: var(--range); }
    .histogram .bar-col.plus { flex: 1.2; }
    .slider { position: relative; height: 28px; margin: 0; }
    .track { position: absolute; left: 11px; right: 11px; top: 0; height: 2px; background: var(--line); }
    .track-fill { position: absolute; top: 0; height: 2px; background: var(--ink); }
    .slider input { position: absolute; left: 0; right: 0; top: -13px; width: 100%; margin: 0; background: none; pointer-events: none;
                    -webkit-appearance: none; appearance: none; height: 28px; }
    .slider input::-webkit-slider-runnable-track { background: none; height: 28px; }
    .slider input::-webkit-slider-thumb { -webkit-appearance: none; pointer-events: auto; width: 26px; height: 26px; border-radius: 50%;
                                          background: #fff; border: 1px solid #b0b0b0; box-shadow: 0 2px 5px rgba(0,0,0,.18); cursor: grab; margin-top: 1px; }
    .slider input::-moz-range-thumb { pointer-events: auto; width: 26px; height: 26px; border-radius: 50%; background: #fff; border: 1px solid #b0b0b0; }
    .slider input:focus-visible::-webkit-slider-thumb { outline: 2px solid var(--ink); outline-offset: 2px; }
    .price-values { display: flex; justify-content: space-between; gap: 16px; margin-top: 4px; }
    .price-box { border: 1px solid #b0b0b0; border-radius: 12px; padding: 6px 14px; min-width: 120px; display: flex; flex-direction: column; }
    .price-box:last-child { text-align: right; }
    .price-box span { font-size: 12px; color: var(--muted); }
    .side-filters { display: flex; flex-direction: column; gap: 12px; }
    .sort { display: flex; align-items: center; gap: 10px; font-weight: 600; }
    .sort select { border: 1px solid #b0b0b0; border-radius: 10px; padding: 8px 10px; background: #fff; font-weight: 400; }

    .error { max-width: 1440px; margin: 12px auto 0; padding: 12px 32px; color: #a0001e; background: #fff1f3; border-left: 4px solid var(--accent); }

    /* Results and map */
    .content { display: grid; grid-template-columns: minmax(0, 1.5fr) minmax(0, 1fr); gap: 32px; padding: 14px 32px 40px; max-width: 1440px; margin: 0 auto; }
    .summary { font-size: 18px; margin: 8px 0 14px; }
    .results { list-style: none; margin: 0; padding: 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(250px, 1fr)); gap: 18px; }
    .card { border: 1px solid #ebebeb; border-radius: var(--radius); overflow: hidden; cursor: pointer; background: #fff; display: flex; flex-direction: column;
            transition: box-shadow .15s, transform .15s; }
    .card:hover, .card:focus-visible, .card.hot { box-shadow: var(--shadow); transform: translateY(-1px); outline: 0; }
    .thumb { height: 120px; display: flex; align-items: flex-end; padding: 10px; color: #fff; font-weight: 700; font-size: 12px; letter-spacing: .02em; }
    .thumb span { background: rgba(0,0,0,.35); border-radius: 8px; padding: 3px 8px; }
    .card-body { padding: 12px 14px 14px; display: flex; flex-direction: column; gap: 3px; flex: 1; }
    .card-top { display: flex; justify-content: space-between; gap: 8px; }
    .card-where { font-weight: 700; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; min-width: 0; }
    .card-body, .card-top { min-width: 0; }
    .stars { white-space: nowrap; flex: none; }
    .card-name, .card-meta { color: var(--muted); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
    .card-price { margin-top: 6px; }
    .card-price strong { font-size: 15px; }
    .card-total { color: var(--muted); text-decoration: underline; }
    .more { margin: 22px auto 0; display: block; border: 1px solid var(--ink); background: #fff; border-radius: 10px; padding: 10px 22px; font-weight: 600; }
    .map-column { position: relative; }
    .map { position: sticky; top: 96px; border-radius: var(--radius); overflow: hidden; border: 1px solid #ebebeb; background: #f4f1ea; aspect-ratio: 4 / 5; }
    .map img { display: block; width: 100%; height: calc(100% + 34px); margin-top: -34px; }
    .pins { position: absolute; inset: 0; }
    .pins button { position: absolute; transform: translate(-50%, -50%); width: 56px; height: 24px; border: 0; background: transparent; border-radius: 12px; padding: 0; }
    .pins button:hover, .pins button.hot { outline: 2.5px solid var(--ink); outline-offset: 1px; background: rgba(255,255,255,.1); }
    .map-note { color: var(--muted); font-size: 12px; margin: 8px 2px 0; }

    /* The listing panel */
    .scrim { position: fixed; inset: 0; background: rgba(0,0,0,.35); z-index: 40; }
    .panel { position: fixed; top: 0; right: 0; bottom: 0; width: min(560px, 100vw); background: #fff; z-index: 50; overflow-y: auto;
             box-shadow: -8px 0 30px rgba(0,0,0,.2); }
    .panel .close { position: absolute; top: 16px; right: 16px; }
    .panel-body { padding: 28px 32px 40px; }
    .eyebrow { color: var(--muted); margin: 0 48px 6px 0; font-weight: 600; }
    .panel h2 { font-size: 22px; margin-right: 40px; }
    .panel h3 { font-size: 16px; margin: 24px 0 10px; }
    .facts { color: var(--muted); margin: 6px 0 18px; }
    .quote { border: 1px solid var(--line); border-radius: var(--radius); padding: 18px 20px; box-shadow: 0 4px 14px rgba(0,0,0,.06); }
    .quote-head { display: flex; justify-content: space-between; align-items: baseline; gap: 10px; }
    .quote-head strong { font-size: 20px; }
    .quote table { width: 100%; border-collapse: collapse; margin: 12px 0; }
    .quote td { padding: 4px 0; }
    .quote td:last-child { text-align: right; }
    .quote tr.closed td { color: #a0001e; }
    .quote .total td { border-top: 1px solid var(--line); padding-top: 10px; font-weight: 700; }
    .badge { display: inline-block; border-radius: 8px; padding: 3px 10px; font-weight: 600; font-size: 13px; }
    .badge.ok { background: #e8f6ee; color: #0b6b3a; }
    .badge.no { background: #fff1f3; color: #a0001e; }
    .reasons { color: #a0001e; margin: 8px 0 0; padding-left: 18px; }
    .nights-scroll { max-height: 260px; overflow-y: auto; }
    .listing-calendar { display: grid; grid-template-columns: 1fr 1fr; gap: 18px; }
    .listing-calendar table { width: 100%; border-collapse: collapse; table-layout: fixed; font-size: 12px; }
    .listing-calendar caption { font-weight: 700; padding-bottom: 6px; }
    .listing-calendar th { color: var(--muted); font-weight: 600; }
    .listing-calendar td { text-align: center; padding: 3px 0; border-radius: 6px; }
    .listing-calendar td small { display: block; color: var(--muted); font-size: 10px; }
    .listing-calendar td.open { background: #f0f7f3; }
    .listing-calendar td.shut { color: #bdbdbd; text-decoration: line-through; }
    .listing-calendar td.stay { background: var(--ink); color: #fff; }
    .listing-calendar td.stay small { color: #ddd; }
    .calendar-nav { display: flex; gap: 8px; justify-content: flex-end; margin-top: -34px; margin-bottom: 10px; }
    .foot { text-align: center; color: var(--muted); font-size: 12px; padding: 24px; border-top: 1px solid var(--line); }
    .foot a { color: inherit; }

    /* Phones and narrow windows: one column, the bar stacked, the map under the results */
    @media (max-width: 960px) {
      .top { flex-direction: column; align-items: stretch; gap: 10px; padding: 10px 14px; position: static; }
      .bar { flex-direction: column; border-radius: 22px; max-width: none; width: 100%; }
      .field + .field::before { display: none; }
      .field + .field { border-top: 1px solid var(--line); }
      .where { padding: 10px 18px; border-radius: 22px 22px 0 0; }
      .dates .field-button, .who .field-button { padding: 10px 18px; border-radius: 0; }
      .go { margin: 8px; justify-content: center; align-self: stretch; }
      .popover { position: fixed; left: 8px; right: 8px; top: 8px; transform: none; width: auto; max-height: calc(100vh - 16px); overflow-y: auto; }
      .months { grid-template-columns: 1fr; }
      .months .month + .month { display: none; }
      .filters, .content { grid-template-columns: minmax(0, 1fr); padding-left: 14px; padding-right: 14px; gap: 18px; }
      .map-column { order: -1; }
      .map { position: relative; top: 0; aspect-ratio: 4 / 3; }
      .results { grid-template-columns: minmax(0, 1fr); gap: 12px; }
      .card { flex-direction: row; }
      .thumb { width: 104px; height: auto; flex: none; padding: 8px; font-size: 11px; }
      .card-body { padding: 10px 12px; }
      .listing-calendar { grid-template-columns: 1fr; }
      .panel-body { padding: 24px 18px 40px; }
    }
    """#
}

/// The search page at `/`: plain HTML, CSS (`/page.css`) and JavaScript (`/page.js`) kept as ordinary files in
/// `Sources/StaySearchAPI/Public/` and compiled into the binary, no build step of their own and nothing from
/// outside the machine. It talks only to the JSON routes of the API.
///
/// The page: a search bar (a region box with suggestions from `/v1/regions`, a month-grid calendar for the
/// stay, a guests stepper), a two-thumb price slider over the histogram's bars that counts the homes in the
/// range as it moves, room-type chips, the results with nightly and total prices, the map of `/v1/map.png`
/// with its pins clickable (placed from the `X-Map-Pins` header), and a listing panel with the night-by-night
/// quote and the listing's calendar. The query lives in the address, so a search can be shared or reloaded.
package enum SearchPage {
    /// The HTML document (`Public/index.html`).
    package static let html = String(decoding: PackageResources.index_html, as: UTF8.self)
    /// The style sheet (`Public/page.css`).
    package static let style = String(decoding: PackageResources.page_css, as: UTF8.self)
    /// The script (`Public/page.js`): state in one object, every answer from the JSON routes, text set with
    /// `textContent` only (listing names are other people's words), stale answers dropped by sequence number.
    package static let script = String(decoding: PackageResources.page_js, as: UTF8.self)
    /// The page's icon (`Public/favicon.svg`).
    package static let icon = String(decoding: PackageResources.favicon_svg, as: UTF8.self)
}

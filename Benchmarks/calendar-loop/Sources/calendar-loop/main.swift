// A month of check-ins (the calendar's second month's days from its 31st day, 31 of them) of NIGHTS-night
// stays for 2 adults, in REGION or over every listing, on THREADS threads: REPEATS calendars, each followed by
// the one exact search of the same query from the month's 15th; prints the medians, the least, and their ratio.
// The first calendar (which works out the span's prices) is not timed. Run two builds' binaries in turn to
// compare them (docs/performance.md, "The price calendar"). INDEX `dynamic:N` or `calibrated:N` builds N generated
// listings (seed 1) in memory instead, as the package benchmarks do.
import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import StayData
import StaySearch

let arguments = CommandLine.arguments
guard arguments.count >= 5, let nights = Int(arguments[2]), let threads = Int(arguments[3]), let repeats = Int(arguments[4]), repeats > 0 else {
    print("usage: calendar-loop INDEX NIGHTS THREADS REPEATS [REGION]")
    exit(64)
}
let region = arguments.count > 5 ? arguments[5] : nil
let index: ListingIndex
do {
    let parts = arguments[1].split(separator: ":")
    if parts.count == 2, let pricing = SyntheticDataset.Pricing(rawValue: String(parts[0])), let count = Int(parts[1]) {
        index = SyntheticDataset(listingCount: count, seed: 1, pricing: pricing).makeIndex()
    } else {
        index = try IndexFileReader.load(from: arguments[1])
    }
} catch {
    print("calendar-loop: \(error)")
    exit(66)
}
let month = index.firstDay.advanced(by: 30)
var calendar = SearchQuery(region: region, adults: 2)
calendar.checkInFrom = month
calendar.checkInTo = month.advanced(by: 30)
calendar.windowNights = nights
let search = SearchQuery(region: region, checkIn: month.advanced(by: 14), checkOut: month.advanced(by: 14 + nights), adults: 2)

func milliseconds(_ work: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    work()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
}

_ = try! index.priceCalendar(calendar, threads: threads)
var calendars: [Double] = [], searches: [Double] = []
for _ in 0..<repeats {
    calendars.append(milliseconds { _ = try! index.priceCalendar(calendar, threads: threads) })
    searches.append(milliseconds { _ = try! index.search(search, threads: threads) })
}
calendars.sort()
searches.sort()
let (c, s) = (calendars[repeats / 2], searches[repeats / 2])
print("\(region ?? "every listing") \(nights) nights, \(threads) threads: calendar \(String(format: "%.2f", c)) ms "
      + "(least \(String(format: "%.2f", calendars[0]))), one search \(String(format: "%.2f", s)) ms "
      + "(least \(String(format: "%.2f", searches[0]))), \(String(format: "%.2f", c / s))×")

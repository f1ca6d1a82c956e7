import StaySearch

extension InsideAirbnbLoader {
    /// Reads a listings file into the builder, giving each listing a handle by id.
    /// The fees of `feesPath` (a `fees.csv`), when given, replace those of the listings' own columns; a row
    /// of it for a listing the file does not have is counted as a field left out.
    func readListings(
        path: String, source: any ByteSource, city: String, feesPath: String? = nil, fileIndex: Int, state: inout LoadState,
        handles: inout [Int64: IndexBuilder.ListingHandle]
    ) throws(DataError) {
        var feeRows: [Int64: FeesFile.Row] = [:]
        if let feesPath {
            let (rows, problems) = try FeesFile.read(path: feesPath)
            if isStrict, let first = problems.first { throw .rejectedRecord(path: feesPath, line: first.line, reason: first.detail) }
            for problem in problems { state.report.rejectField(path: feesPath, line: problem.line, reason: .badFee, detail: problem.detail) }
            feeRows = rows
        }
        var usedFeeRows = Set<Int64>()
        try forEachRecord(path: path, source: source, required: Self.requiredListingColumns, fileIndex: fileIndex, state: &state,
                          columns: ListingColumns.init(header:)) {
            column, record, state throws(DataError) in
            guard var listing = try listingRecord(record, columns: column, city: city, fileIndex: fileIndex, state: &state) else { return }
            if let row = feeRows[listing.id] {
                var fees = row.fees
                fees.securityDeposit = listing.fees?.securityDeposit
                listing.fees = fees.isEmpty ? nil : fees
                usedFeeRows.insert(listing.id)
            }
            let id = listing.id, line = record.line
            if let handle = state.builder.handle(forListingID: id) {
                let first = RecordOrigin(packed: state.listingOrigins[Int(handle.position)])
                return try reject(&state, fileIndex: fileIndex, line: line, .duplicateListing,
                                  "duplicate listing id \(id) (first seen at \(state.report.files[first.file].path):\(first.line))")
            }
            let handle: IndexBuilder.ListingHandle
            do {
                handle = try state.builder.addListing(listing)
            } catch let error as IndexBuilderError {
                return try reject(&state, fileIndex: fileIndex, line: line, .other, error.description)
            } catch {
                return try reject(&state, fileIndex: fileIndex, line: line, .other, "\(error)")
            }
            handles[id] = handle
            state.listingOrigins.append(RecordOrigin(file: fileIndex, line: line).packed)
            state.report.files[fileIndex].loaded += 1
            state.report.listingsLoaded += 1
            if listing.fees != nil { state.report.listingsWithFees += 1 }
        }
        if let feesPath {
            for (id, row) in feeRows.sorted(by: { $0.value.line < $1.value.line }) where !usedFeeRows.contains(id) {
                let detail = "fees for listing \(id), which \(path) does not have; row left out"
                if isStrict { throw .rejectedRecord(path: feesPath, line: row.line, reason: detail) }
                state.report.rejectField(path: feesPath, line: row.line, reason: .feesForUnknownListing, detail: detail)
            }
        }
    }

    /// The listing of one record of a listings file, or nil when the record is rejected (and counted).
    private func listingRecord(_ record: CSVRecord, columns column: ListingColumns, city: String, fileIndex: Int,
                               state: inout LoadState) throws(DataError) -> ListingRecord? {
        func text(_ position: Int?) -> String { position.map { record.string(at: $0).trimmingSpaces } ?? "" }
        func bytes(_ position: Int?) -> UnsafeBufferPointer<UInt8> {
            position.map { record.bytes(at: $0) } ?? UnsafeBufferPointer(start: nil, count: 0)
        }
        /// Rejects the record: nil, for the caller to return.
        func rejected(_ state: inout LoadState, fileIndex: Int, line: Int, _ reason: Rejection.Reason, _ detail: String) throws(DataError) -> ListingRecord? {
            try reject(&state, fileIndex: fileIndex, line: line, reason, detail)
            return nil
        }
        let line = record.line
        guard let id = FieldParsing.int64(bytes(column.id)), id >= 0 else {
            return try rejected(&state, fileIndex: fileIndex, line: line, .badID, "id '\(FieldParsing.excerpt(bytes(column.id)))' is not a listing id")
        }
        let roomType = text(column.roomType)
        guard !roomType.isEmpty else {
            return try rejected(&state, fileIndex: fileIndex, line: line, .badRoomType, "listing \(id): room_type is empty")
        }
        guard let accommodates = FieldParsing.count(bytes(column.accommodates)) else {
            return try rejected(&state, fileIndex: fileIndex, line: line, .badNumber,
                              "listing \(id): accommodates '\(FieldParsing.excerpt(bytes(column.accommodates)))' is not a count")
        }
        var price: Money?
        if !bytes(column.price).isEmpty {
            guard let parsed = Money(parsingASCII: bytes(column.price)), parsed <= IndexBuilder.largestPrice else {
                return try rejected(&state, fileIndex: fileIndex, line: line, .badPrice,
                                  "listing \(id): price '\(FieldParsing.excerpt(bytes(column.price)))' is not an amount such as $70.00 (up to $1,000,000,000.00)")
            }
            price = parsed
        }
        var numbers: [Int32] = []
        for (name, position, fallback) in [("minimum_nights", column.minimumNights, Int32(1)),
                                           ("maximum_nights", column.maximumNights, Int32.max),
                                           ("number_of_reviews", column.reviewCount, Int32(0)),
                                           ("number_of_reviews_ltm", column.recentReviewCount, Int32(0))] {
            let field = bytes(position)
            if field.isEmpty { numbers.append(fallback); continue }
            guard let value = FieldParsing.count(field) else {
                return try rejected(&state, fileIndex: fileIndex, line: line, .badNumber,
                                  "listing \(id): \(name) '\(FieldParsing.excerpt(field))' is not a count")
            }
            numbers.append(value)
        }
        var rating: Int32?
        if !bytes(column.rating).isEmpty {
            guard let parsed = FieldParsing.rating(bytes(column.rating)) else {
                return try rejected(&state, fileIndex: fileIndex, line: line, .badNumber,
                                  "listing \(id): review_scores_rating '\(FieldParsing.excerpt(bytes(column.rating)))' is not a rating from 0 to 5 (or to 100)")
            }
            rating = parsed
        }
        var coordinates: [Double] = []
        for (name, position, limit) in [("latitude", column.latitude, 90.0), ("longitude", column.longitude, 180.0)] {
            if position == nil || bytes(position).isEmpty { coordinates.append(0); continue }
            guard let value = FieldParsing.double(bytes(position)), abs(value) <= limit else {
                return try rejected(&state, fileIndex: fileIndex, line: line, .badNumber,
                                  "listing \(id): \(name) '\(FieldParsing.excerpt(bytes(position)))' is not a number from -\(Int(limit)) to \(Int(limit))")
            }
            coordinates.append(value)
        }
        var amenities: [String] = []
        if let position = column.amenities, !bytes(position).isEmpty {
            // The field is quoted in the file (its quotes doubled): parse its unescaped text.
            var field = record.string(at: position)
            if let parsed = field.withUTF8({ AmenityList.parseEither($0) }) {
                amenities = parsed
            } else {
                state.report.rejectField(fileIndex: fileIndex, line: line, reason: .malformedAmenities,
                                         detail: "listing \(id): amenities '\(FieldParsing.excerpt(bytes(position)))' is not a list of names (a JSON list or {…}); loaded without amenities")
            }
        }
        let (fees, feeProblems) = column.fees.fees(of: record, price: price)
        for problem in feeProblems {
            if isStrict { throw .rejectedRecord(path: state.report.files[fileIndex].path, line: line, reason: "listing \(id): \(problem)") }
            state.report.rejectField(fileIndex: fileIndex, line: line, reason: .badFee, detail: "listing \(id): \(problem); loaded without it")
        }
        let listing = ListingRecord(
            id: id, name: text(column.name),
            region: RegionPath(city: city, neighbourhoodGroup: text(column.neighbourhoodGroup), neighbourhood: text(column.neighbourhood)),
            roomType: roomType, accommodates: Int(accommodates), price: price,
            minimumNights: numbers[0], maximumNights: numbers[1], ratingHundredths: rating,
            reviewCount: numbers[2], recentReviewCount: numbers[3], latitude: coordinates[0], longitude: coordinates[1],
            bedrooms: FieldParsing.wholeCount(bytes(column.bedrooms)), beds: FieldParsing.wholeCount(bytes(column.beds)),
            bathroomHalves: FieldParsing.bathroomHalves(bytes(column.bathrooms)) ?? FieldParsing.bathroomHalves(text: text(column.bathroomsText)),
            propertyType: text(column.propertyType), amenities: amenities,
            isInstantBookable: FieldParsing.isTrue(bytes(column.instantBookable)),
            isSuperhost: FieldParsing.isTrue(bytes(column.superhost)), fees: fees)
        return listing
    }
}

/// Positions of the listing columns the loader reads.
private struct ListingColumns {
    let id, roomType, accommodates, neighbourhood: Int
    let name, neighbourhoodGroup, price, minimumNights, maximumNights, reviewCount, recentReviewCount, rating, latitude, longitude: Int?
    let bedrooms, beds, bathrooms, bathroomsText, propertyType, amenities, instantBookable, superhost: Int?
    let fees: FeeColumns

    init(header: CSVHeader) {
        id = header.position(of: "id")!
        roomType = header.position(of: "room_type")!
        accommodates = header.position(of: "accommodates")!
        neighbourhood = header.position(of: "neighbourhood_cleansed")!
        name = header.position(of: "name")
        neighbourhoodGroup = header.position(of: "neighbourhood_group_cleansed")
        price = header.position(of: "price")
        minimumNights = header.position(of: "minimum_nights")
        maximumNights = header.position(of: "maximum_nights")
        reviewCount = header.position(of: "number_of_reviews")
        recentReviewCount = header.position(of: "number_of_reviews_ltm")
        rating = header.position(of: "review_scores_rating")
        latitude = header.position(of: "latitude")
        longitude = header.position(of: "longitude")
        bedrooms = header.position(of: "bedrooms")
        beds = header.position(of: "beds")
        bathrooms = header.position(of: "bathrooms")
        bathroomsText = header.position(of: "bathrooms_text")
        propertyType = header.position(of: "property_type")
        amenities = header.position(of: "amenities")
        instantBookable = header.position(of: "instant_bookable")
        superhost = header.position(of: "host_is_superhost")
        fees = FeeColumns(header: header)
    }
}

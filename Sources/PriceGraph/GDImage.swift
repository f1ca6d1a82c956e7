import CGD

/// A true-colour libgd image. Owns the C image and frees it when released; every C failure comes
/// back as a thrown ``GraphError``. Not shared between threads.
public final class GDImage {
    private let image: gdImagePtr

    /// Creates a blank image.
    /// - Throws: ``GraphError/cannotCreateImage(width:height:)``.
    public init(width: Int, height: Int) throws(GraphError) {
        guard width > 0, height > 0, width <= 20_000, height <= 20_000,
              let image = gdImageCreateTrueColor(Int32(width), Int32(height)) else {
            throw .cannotCreateImage(width: width, height: height)
        }
        self.image = image
        gdImageAlphaBlending(image, 1)
        gdImageSaveAlpha(image, 0)
    }

    /// Decodes a PNG (to read back what was written).
    /// - Throws: ``GraphError/cannotDecodePNG``.
    public init(png bytes: [UInt8]) throws(GraphError) {
        var bytes = bytes
        let decoded = bytes.withUnsafeMutableBytes { gdImageCreateFromPngPtr(Int32($0.count), $0.baseAddress) }
        guard let decoded else { throw .cannotDecodePNG }
        self.image = decoded
    }

    deinit { gdImageDestroy(image) }

    /// Width in pixels.
    public var width: Int { Int(staysearch_gd_width(image)) }
    /// Height in pixels.
    public var height: Int { Int(staysearch_gd_height(image)) }

    /// Fills a rectangle (corners inclusive).
    public func fillRectangle(x1: Int, y1: Int, x2: Int, y2: Int, color: Color) {
        gdImageFilledRectangle(image, Int32(x1), Int32(y1), Int32(x2), Int32(y2), color.gd)
    }

    /// Draws a line `thickness` pixels wide.
    public func line(x1: Int, y1: Int, x2: Int, y2: Int, color: Color, thickness: Int = 1) {
        gdImageSetThickness(image, Int32(max(1, thickness)))
        gdImageLine(image, Int32(x1), Int32(y1), Int32(x2), Int32(y2), color.gd)
        gdImageSetThickness(image, 1)
    }

    /// Fills an ellipse centred on (x, y).
    public func fillEllipse(x: Int, y: Int, width: Int, height: Int, color: Color) {
        gdImageFilledEllipse(image, Int32(x), Int32(y), Int32(width), Int32(height), color.gd)
    }

    /// Whether libgd's FreeType font cache is set up, which happens once, before any text is drawn: the set-up
    /// that `gdImageStringFT` otherwise does on first use is not safe when two threads draw their first text
    /// at the same moment (their FreeType libraries and cache replace each other: "Could not read font").
    private static let fontCacheIsReady = gdFontCacheSetup() == 0

    /// Draws anti-aliased TrueType text with its baseline starting at (x, y).
    /// - Returns: the text's width in pixels.
    /// - Throws: ``GraphError/text(_:)`` when FreeType fails.
    @discardableResult
    public func text(_ text: String, x: Int, y: Int, font: String, size: Double, color: Color) throws(GraphError) -> Int {
        guard GDImage.fontCacheIsReady else { throw .text("libgd's font cache cannot be set up") }
        var bounds = [Int32](repeating: 0, count: 8)
        let failure = gdImageStringFT(image, &bounds, color.gd, font, size, 0, Int32(x), Int32(y), text)
        if let failure { throw .text(String(cString: failure)) }
        return Int(bounds[2] - bounds[0])
    }

    /// The width and height in pixels of `text` in a TrueType font, without drawing it.
    public static func measure(_ text: String, font: String, size: Double) throws(GraphError) -> (width: Int, height: Int) {
        guard fontCacheIsReady else { throw .text("libgd's font cache cannot be set up") }
        var bounds = [Int32](repeating: 0, count: 8)
        let failure = gdImageStringFT(nil, &bounds, 0, font, size, 0, 0, 0, text)
        if let failure { throw .text(String(cString: failure)) }
        return (Int(bounds[2] - bounds[0]), Int(bounds[1] - bounds[7]))
    }

    /// Draws text in gd's small built-in bitmap font (ASCII), its top left at (x, y).
    public func builtinText(_ text: String, x: Int, y: Int, color: Color) {
        var bytes = Array(text.unicodeScalars.map { $0.isASCII ? UInt8($0.value) : UInt8(ascii: "?") }) + [0]
        bytes.withUnsafeMutableBufferPointer { gdImageString(image, gdFontGetSmall(), Int32(x), Int32(y), $0.baseAddress, color.gd) }
    }

    /// The built-in font's character cell.
    public static let builtinCell = (width: 6, height: 13)

    /// The colour of one pixel (for checking what was drawn).
    public func pixel(x: Int, y: Int) -> Color {
        let value = gdImageGetTrueColorPixel(image, Int32(x), Int32(y))
        return Color(red: UInt8((value >> 16) & 0xFF), green: UInt8((value >> 8) & 0xFF), blue: UInt8(value & 0xFF),
                     alpha: UInt8((value >> 24) & 0x7F))
    }

    /// The image as PNG bytes.
    /// - Throws: ``GraphError/cannotEncodePNG``.
    public func pngData() throws(GraphError) -> [UInt8] {
        var size: Int32 = 0
        guard let pointer = gdImagePngPtrEx(image, &size, 6), size > 0 else { throw .cannotEncodePNG }
        defer { gdFree(pointer) }
        return Array(UnsafeRawBufferPointer(start: pointer, count: Int(size)))
    }
}

/// An sRGB colour with libgd's alpha (0 opaque … 127 transparent).
public struct Color: Hashable, Sendable {
    public var red, green, blue, alpha: UInt8

    /// Creates a colour.
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 0) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// A colour from `0xRRGGBB`.
    public init(hex: UInt32, alpha: UInt8 = 0) {
        self.init(red: UInt8(hex >> 16 & 0xFF), green: UInt8(hex >> 8 & 0xFF), blue: UInt8(hex & 0xFF), alpha: alpha)
    }

    var gd: Int32 { staysearch_gd_color(Int32(red), Int32(green), Int32(blue), Int32(alpha)) }
}

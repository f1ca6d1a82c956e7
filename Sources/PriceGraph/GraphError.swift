/// Why a chart could not be drawn or written.
public enum GraphError: Error, Equatable, CustomStringConvertible {
    /// libgd could not make an image of this size.
    case cannotCreateImage(width: Int, height: Int)
    /// libgd could not encode the image as PNG.
    case cannotEncodePNG
    /// The bytes are not a PNG libgd can read.
    case cannotDecodePNG
    /// libgd's TrueType renderer failed (its message).
    case text(String)
    /// The size asked for is out of range.
    case badSize(String)

    public var description: String {
        switch self {
        case let .cannotCreateImage(width, height): return "cannot create a \(width)×\(height) image"
        case .cannotEncodePNG: return "cannot encode the image as PNG"
        case .cannotDecodePNG: return "not a PNG image"
        case let .text(message): return "cannot draw text: \(message)"
        case let .badSize(message): return message
        }
    }
}

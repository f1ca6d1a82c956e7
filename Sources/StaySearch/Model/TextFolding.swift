import Foundation

/// Folds text for matching names: lower case, no diacritics, letters such as `ß` and `ø` spelled
/// out, runs of white space as one space, trimmed. `Zürich` and `ZURICH` both fold to `zurich`.
public enum TextFolding {
    /// Returns the folded form of `text`.
    /// - Complexity: O(*n*) in the length of `text`.
    public static func fold(_ text: String) -> String {
        var folded = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in text.decomposedStringWithCanonicalMapping.lowercased().unicodeScalars {
            if scalar.properties.isWhitespace {
                pendingSpace = !folded.isEmpty
                continue
            }
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .enclosingMark, .spacingMark: continue
            default: break
            }
            if pendingSpace { folded.append(" "); pendingSpace = false }
            if let spelled = spelledOut[scalar] {
                folded.append(contentsOf: spelled.unicodeScalars)
            } else {
                folded.append(scalar)
            }
        }
        return String(folded)
    }

    /// Letters that carry no combining mark under Unicode decomposition but read as Latin letters.
    private static let spelledOut: [Unicode.Scalar: String] = [
        "ß": "ss", "ø": "o", "æ": "ae", "œ": "oe", "ł": "l", "đ": "d", "ð": "d", "þ": "th",
        "ı": "i", "ħ": "h", "ŧ": "t", "ŀ": "l", "ĸ": "k", "ŋ": "n",
    ]
}

import StaySearch

#if canImport(Glibc)
import Glibc
#endif

/// Finds the TrueType fonts charts are drawn with: DejaVu Sans, where the system has it.
public enum FontLocator {
    /// Folders searched, in order.
    static let folders = ["/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/dejavu", "/usr/share/fonts/TTF",
                          "/usr/local/share/fonts", "/Library/Fonts"]

    /// The path of a font file by name (e.g. `DejaVuSans.ttf`), or nil when none is installed.
    public static func find(_ name: String) -> String? {
        for folder in folders {
            let path = folder + "/" + name
            if access(path, R_OK) == 0 { return path }
        }
        return nil
    }

    /// Folders searched for fonts with Hangul (Debian's `fonts-noto-cjk`), in order.
    static let cjkFolders = ["/usr/share/fonts/opentype/noto", "/usr/share/fonts/noto-cjk", "/usr/share/fonts/google-noto-cjk",
                             "/usr/local/share/fonts"]

    /// The regular and bold sans-serif fonts for text in `language`: Noto Sans CJK for Korean (DejaVu has no
    /// Hangul), DejaVu Sans otherwise; nil when there is no TrueType font.
    public static func sans(for language: DisplayStyle.Language) -> (regular: String, bold: String)? {
        guard language == .korean else { return sans() }
        for folder in cjkFolders {
            let regular = folder + "/NotoSansCJK-Regular.ttc"
            guard access(regular, R_OK) == 0 else { continue }
            let bold = folder + "/NotoSansCJK-Bold.ttc"
            return (regular, access(bold, R_OK) == 0 ? bold : regular)
        }
        return sans()
    }

    /// Whether text in `language` has a font that writes it (Hangul needs one of its own).
    public static func hasFont(for language: DisplayStyle.Language) -> Bool {
        guard let fonts = sans(for: language) else { return false }
        return language != .korean || fonts.regular.hasSuffix(".ttc")
    }

    /// The regular and bold sans-serif fonts, or nil when there is no TrueType font.
    public static func sans() -> (regular: String, bold: String)? {
        guard let regular = find("DejaVuSans.ttf") else { return nil }
        return (regular, find("DejaVuSans-Bold.ttf") ?? regular)
    }
}

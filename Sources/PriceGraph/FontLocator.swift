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

    /// The regular and bold sans-serif fonts, or nil when there is no TrueType font.
    public static func sans() -> (regular: String, bold: String)? {
        guard let regular = find("DejaVuSans.ttf") else { return nil }
        return (regular, find("DejaVuSans-Bold.ttf") ?? regular)
    }
}

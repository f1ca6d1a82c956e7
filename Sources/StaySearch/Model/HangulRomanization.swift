import Foundation

/// Hangul written in Latin letters by the Revised Romanization of Korean (Ministry of Culture and Tourism,
/// 2000), as place names are signed: 종로 → jongno, 강남 → gangnam, 서울 → seoul.
///
/// Each syllable is split into its initial consonant, vowel and final consonant, and the consonants are
/// written by where they fall, with these rules of the system:
/// - ㄱ ㄷ ㅂ ㄹ are g d b r before a vowel and k t p l at the end of a syllable or before a consonant;
/// - a final consonant before a syllable that starts with a vowel (silent ㅇ) is carried over and written as
///   an initial (한국어 → hangugeo; ㅎ is then silent, 좋아 → joa; of a double final, the second is carried:
///   읽어 → ilgeo);
/// - nasalisation: a final k, t or p before ㄴ or ㅁ becomes ng, n or m (국민 → gungmin, 십만 → simman);
/// - ㄹ after any final but ㄴ and ㄹ is n (종로 → jongno, 대학로 → daehangno, 법률 → beomnyul);
/// - ㄴ before ㄹ, and ㄹ after ㄹ or ㄴ, are l (신라 → silla, 설날 → seollal, 별내 → byeollae).
///
/// Not implemented: aspiration with ㅎ (좋고 is written jotgo, not joko), palatalisation (굳이 is gudi, not
/// guji), tensing (never written in the system anyway) and the hyphen that separates ambiguous syllables.
/// Characters other than Hangul syllables are kept as they are.
public enum HangulRomanization {
    /// `text` with its Hangul syllables romanized (in lower case; other characters as they are); nil when it
    /// has none.
    public static func romanize(_ text: String) -> String? {
        // Most text has no Hangul: say so without copying it (syllables, or jamo to be composed).
        guard text.unicodeScalars.contains(where: { (0x1100...0x11FF).contains($0.value) || isSyllable($0) }) else { return nil }
        let scalars = Array(text.precomposedStringWithCanonicalMapping.unicodeScalars)
        guard scalars.contains(where: isSyllable) else { return nil }
        var output = ""
        for (index, scalar) in scalars.enumerated() {
            guard isSyllable(scalar) else {
                output.unicodeScalars.append(scalar)
                continue
            }
            let (initial, vowel, final) = parts(of: scalar)
            let previousFinal = index > 0 && isSyllable(scalars[index - 1]) ? parts(of: scalars[index - 1]).final : 0
            let next = index + 1 < scalars.count && isSyllable(scalars[index + 1]) ? parts(of: scalars[index + 1]).initial : nil
            output += initialSound(initial, after: previousFinal)
            output += vowels[vowel]
            output += finalSound(final, before: next)
        }
        return output
    }

    private static func isSyllable(_ scalar: Unicode.Scalar) -> Bool { (0xAC00...0xD7A3).contains(scalar.value) }

    /// The initial (0–18), vowel (0–20) and final (0–27, 0 for none) of a syllable.
    private static func parts(of syllable: Unicode.Scalar) -> (initial: Int, vowel: Int, final: Int) {
        let offset = Int(syllable.value) - 0xAC00
        return (offset / (21 * 28), offset / 28 % 21, offset % 28)
    }

    // Initials: ㄱ ㄲ ㄴ ㄷ ㄸ ㄹ ㅁ ㅂ ㅃ ㅅ ㅆ ㅇ ㅈ ㅉ ㅊ ㅋ ㅌ ㅍ ㅎ
    private static let initials = ["g", "kk", "n", "d", "tt", "r", "m", "b", "pp", "s", "ss", "", "j", "jj", "ch", "k", "t", "p", "h"]
    private static let silentInitial = 11, initialN = 2, initialR = 5, initialM = 6
    private static let vowels = ["a", "ae", "ya", "yae", "eo", "e", "yeo", "ye", "o", "wa", "wae", "oe", "yo", "u", "wo", "we", "wi",
                                 "yu", "eu", "ui", "i"]
    // Finals: (none) ㄱ ㄲ ㄳ ㄴ ㄵ ㄶ ㄷ ㄹ ㄺ ㄻ ㄼ ㄽ ㄾ ㄿ ㅀ ㅁ ㅂ ㅄ ㅅ ㅆ ㅇ ㅈ ㅊ ㅋ ㅌ ㅍ ㅎ
    /// Each final as it sounds at the end of a syllable.
    private static let finalSounds = ["", "k", "k", "k", "n", "n", "n", "t", "l", "k", "m", "l", "l", "l", "p", "l", "m", "p", "p", "t", "t",
                                      "ng", "t", "t", "k", "t", "p", "t"]
    /// Each final carried over to a following vowel: (what stays, what is carried as the next initial).
    private static let carriedOver: [(stays: String, carried: String)] = [
        ("", ""), ("", "g"), ("", "kk"), ("k", "s"), ("", "n"), ("n", "j"), ("n", ""), ("", "d"), ("", "r"), ("l", "g"), ("l", "m"),
        ("l", "b"), ("l", "s"), ("l", "t"), ("l", "p"), ("l", ""), ("", "m"), ("", "b"), ("p", "s"), ("", "s"), ("", "ss"), ("ng", ""),
        ("", "j"), ("", "ch"), ("", "k"), ("", "t"), ("", "p"), ("", ""),
    ]

    /// The final `final` as written before a syllable whose initial is `next` (nil: none follows).
    private static func finalSound(_ final: Int, before next: Int?) -> String {
        guard let next else { return finalSounds[final] }
        if next == silentInitial { return carriedOver[final].stays }
        let sound = finalSounds[final]
        if next == initialN || next == initialM {
            switch sound {
            case "k": return "ng"
            case "t": return "n"
            case "p": return "m"
            default: return sound
            }
        }
        if next == initialR {
            switch sound {
            case "k": return "ng"
            case "t": return "n"
            case "p": return "m"
            case "n": return "l"
            default: return sound
            }
        }
        return sound
    }

    /// The initial `initial` as written after a syllable whose final is `previousFinal` (0: none).
    private static func initialSound(_ initial: Int, after previousFinal: Int) -> String {
        if initial == silentInitial { return carriedOver[previousFinal].carried }
        guard previousFinal != 0 else { return initials[initial] }
        if initial == initialR {
            // ㄹ after ㄹ or ㄴ is l; after any other final, n.
            return finalSounds[previousFinal] == "l" || finalSounds[previousFinal] == "n" ? "l" : "n"
        }
        if initial == initialN, finalSounds[previousFinal] == "l" { return "l" }
        return initials[initial]
    }
}

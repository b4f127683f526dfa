@_spi(_Unicode) import Swift

/// Case and accent folding without Foundation, by the rules Foundation's
/// `folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)` follows (measured
/// against it scalar by scalar, see `TextFoldingTests`): letters are case-folded ("ß" → "ss",
/// "ﬁ" → "fi", dotless "ı" kept), then the combining diacritics U+0300–U+036F are dropped —
/// every one after a Latin, Greek or Cyrillic base (below U+0510), only the first after any
/// other (Hangul, kana with its voicing marks, Devanagari and Arabic keep theirs).
/// Where the two differ (case pairs newer than Foundation's tables, such as U+1C80–U+1C89) this
/// follows Unicode's own case mappings.
enum TextFolding {
    /// Bases below this fold their accents away wholly (Latin, Greek, Cyrillic and symbols).
    private static let accentedBaseLimit: UInt32 = 0x510
    private static let combiningDiacritics: ClosedRange<UInt32> = 0x300...0x36F

    /// `text` case-folded; accents dropped too when `accents` is true. Takes NFC text.
    static func fold(_ text: String, accents: Bool) -> String {
        let folded = caseFolded(text)
        return accents ? withoutAccents(folded) : folded
    }

    private static func caseFolded(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x41...0x5A:
                out.append(Unicode.Scalar(UInt8(scalar.value) | 0x20))
            case 0..<0x80, 0x131, 0x345:
                out.append(scalar)
            case 0x1F80...0x1FFC where String(scalar)._nfd.contains(where: { $0.value == 0x345 }):
                // Greek with iota subscript: the subscript is an accent here, not a letter ι.
                for part in String(scalar)._nfd where part.value != 0x345 { appendFolded(part, to: &out) }
            case _ where !scalar.properties.changesWhenCaseMapped:
                out.append(scalar)  // Hangul, CJK, kana…: no case to fold
            default:
                appendFolded(scalar, to: &out)
            }
        }
        return String(out)
    }

    /// Full case folding as upper- then lower-casing gives it, with "ß" spelt "ss".
    private static func appendFolded(_ scalar: Unicode.Scalar, to out: inout String.UnicodeScalarView) {
        for part in String(scalar).uppercased().lowercased().unicodeScalars {
            if part.value == 0xDF {
                out.append("s")
                out.append("s")
            } else {
                out.append(part)
            }
        }
    }

    private static func withoutAccents(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var base: UInt32?
        var justAfterBase = false
        for scalar in text.unicodeScalars {
            let follows = justAfterBase
            justAfterBase = false
            if combiningDiacritics.contains(scalar.value), let base, base < accentedBaseLimit || follows { continue }
            if scalar.properties.canonicalCombiningClass != .notReordered {
                out.append(scalar)
                continue
            }
            justAfterBase = true
            // Hangul syllables and CJK ideographs decompose into no Latin, Greek or Cyrillic base.
            if scalar.value >= 0xC0, !(0x4E00...0x9FFF).contains(scalar.value), !(0xAC00...0xD7A3).contains(scalar.value) {
                let parts = Array(String(scalar)._nfd)
                if parts != [scalar], let first = parts.first, first.value < accentedBaseLimit {
                    out.append(first)
                    base = first.value
                    continue
                }
            }
            out.append(scalar)
            base = scalar.value
        }
        return String(out)
    }

    /// `text` in Unicode normalisation form C.
    static func nfc(_ text: String) -> String {
        String(decoding: text._nfcCodeUnits, as: UTF8.self)
    }
}

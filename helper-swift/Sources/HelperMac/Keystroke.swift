#if canImport(ApplicationServices)
import Foundation
import HelperCore

/// One step of typing a text: a run of characters sent as one event's Unicode string, or the Return or Tab key
/// for a line break or a tab (a "\n" in a Unicode string inserts a character; it does not press Return, which is
/// what submits a form).
struct Keystroke {
    enum Kind: Equatable {
        case text([UniChar])
        case lineBreak
        case tab
    }

    /// macOS reads at most 20 UTF-16 units from an event's Unicode string and silently drops the rest.
    static let maxUnitsPerEvent = 20
    /// Between chunks typed without a delay: apps have been seen to drop or reorder chunks posted back to back.
    static let chunkPauseMs = 4.0

    let kind: Kind
    /// How many characters (Unicode scalars) this stroke types; "\r\n" counts as one, as it is one line break.
    let characters: Int

    /// The strokes of `text`, checked whole before any event is posted: one per character when `onePerCharacter` (typing with a delay between characters),
    /// else as few as the 20-unit limit allows. Runs break between scalars, never inside a surrogate pair.
    static func of(_ text: String, onePerCharacter: Bool) throws -> [Keystroke] {
        var strokes: [Keystroke] = []
        var run: [UniChar] = []
        var runCharacters = 0
        func flush() {
            if run.isEmpty { return }
            strokes.append(Keystroke(kind: .text(run), characters: runCharacters))
            run = []
            runCharacters = 0
        }
        for (index, scalar) in text.replacingOccurrences(of: "\r\n", with: "\n").unicodeScalars.enumerated() {
            switch scalar.value {
            case 0x0A, 0x0D:
                flush()
                strokes.append(Keystroke(kind: .lineBreak, characters: 1))
            case 0x09:
                flush()
                strokes.append(Keystroke(kind: .tab, characters: 1))
            case 0x00..<0x20, 0x7F..<0xA0:
                throw RPCError(
                    ErrorCode.invalidParams,
                    "character \(index + 1) of the text is a control character "
                        + "(U+\(String(format: "%04X", scalar.value))), which no key types",
                    hint: "type text without control characters; press_key presses keys such as backspace or escape"
                )
            default:
                let units = Array(String(scalar).utf16)
                if onePerCharacter || run.count + units.count > maxUnitsPerEvent { flush() }
                run.append(contentsOf: units)
                runCharacters += 1
            }
        }
        flush()
        return strokes
    }
}
#endif

#if canImport(Carbon)
import Carbon
import HelperCore

/// Keys by what they type under the current keyboard layout: press_key "z" is the key that types z under QWERTZ
/// too, where the US place of z types y. The layout's Unicode key map (Text Input Sources, UCKeyTranslate) is
/// searched over the virtual key codes, without and then with Shift. Text Input Sources are read on the main
/// thread.
@MainActor enum KeyboardLayout {
    /// Carbon's shiftKey modifier bit (Events.h, 0x0200), as UCKeyTranslate takes modifiers: shifted right by 8.
    private static let shiftState = UInt32((shiftKey >> 8) & 0xFF)

    /// The virtual key code that types `character` under the current layout, and whether it needs Shift.
    static func key(typing character: String) -> (code: CGKeyCode, shift: Bool)? {
        guard let source = TISCopyCurrentKeyboardLayoutInputSource()?.takeRetainedValue(),
            let raw = TISGetInputSourceProperty(source, kTISPropertyUnicodeKeyLayoutData)
        else { return nil }
        let data = unsafeBitCast(raw, to: CFData.self)
        guard let bytes = CFDataGetBytePtr(data) else { return nil }
        let layout = UnsafeRawPointer(bytes).assumingMemoryBound(to: UCKeyboardLayout.self)
        for shift in [false, true] {
            for code in UInt16(0)..<128 where translate(layout, code, shift: shift) == character {
                return (CGKeyCode(code), shift)
            }
        }
        return nil
    }

    private static func translate(_ layout: UnsafePointer<UCKeyboardLayout>, _ code: UInt16, shift: Bool) -> String? {
        var deadKeyState: UInt32 = 0
        var units = [UniChar](repeating: 0, count: 4)
        var length = 0
        let status = UCKeyTranslate(
            layout, code, UInt16(kUCKeyActionDown), shift ? shiftState : 0, UInt32(LMGetKbdType()),
            OptionBits(kUCKeyTranslateNoDeadKeysBit), &deadKeyState, units.count, &length, &units)
        guard status == noErr, length > 0 else { return nil }
        return String(utf16CodeUnits: units, count: length)
    }
}
#endif

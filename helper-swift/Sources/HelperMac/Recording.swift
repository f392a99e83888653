#if canImport(ApplicationServices)
@preconcurrency import ApplicationServices
import Foundation
import HelperCore

/// record.start / record.stop: a listen-only event tap on the login session (it sees, never changes, what a person
/// types and clicks; macOS asks for the Input Monitoring permission), each key down and mouse button sent as
/// `record.input`. Its run loop source sits on the main run loop, so the callback runs on the main thread. What
/// was typed goes only into the notifications, never to the log. Events this helper posted are left out.
@MainActor enum Recording {
    private static var tap: CFMachPort?
    private static var source: CFRunLoopSource?
    private static var dispatcher: Dispatcher?
    private static var sent = 0

    private static let recorded: [CGEventType] = [
        .keyDown, .leftMouseDown, .leftMouseUp, .rightMouseDown, .rightMouseUp, .otherMouseDown, .otherMouseUp,
    ]

    static func start(_ dispatcher: Dispatcher) throws -> Empty {
        guard tap == nil else { return Empty() }
        let what = "recording what a person types and clicks"
        guard CGPreflightListenEventAccess() else { throw Privacy.inputMonitoring.denied(what) }
        let mask = recorded.reduce(CGEventMask(0)) { $0 | (CGEventMask(1) << $1.rawValue) }
        guard
            let port = CGEvent.tapCreate(
                tap: .cgSessionEventTap, place: .headInsertEventTap, options: .listenOnly,
                eventsOfInterest: mask, callback: recordingTapCallback, userInfo: nil)
        else { throw Privacy.inputMonitoring.denied(what) }
        let runLoopSource = CFMachPortCreateRunLoopSource(kCFAllocatorDefault, port, 0)
        CFRunLoopAddSource(CFRunLoopGetMain(), runLoopSource, .commonModes)
        CGEvent.tapEnable(tap: port, enable: true)
        tap = port
        source = runLoopSource
        Recording.dispatcher = dispatcher
        sent = 0
        return Empty()
    }

    static func stop() -> RecordStopResult {
        guard let port = tap else { return RecordStopResult(events: 0) }
        CGEvent.tapEnable(tap: port, enable: false)
        if let source { CFRunLoopRemoveSource(CFRunLoopGetMain(), source, .commonModes) }
        CFMachPortInvalidate(port)
        tap = nil
        source = nil
        dispatcher = nil
        return RecordStopResult(events: sent)
    }

    /// macOS turns a tap off when its callback is slow or on some user input; it is turned back on at once.
    fileprivate static func reenable() {
        if let tap { CGEvent.tapEnable(tap: tap, enable: true) }
    }

    fileprivate static func heard(_ type: CGEventType, _ event: CGEvent) {
        // The helper's own input (an agent acting while the person demonstrates) is not the person's.
        guard event.getIntegerValueField(.eventSourceUnixProcessID) != PersonWatch.ownPid else { return }
        guard let dispatcher, let input = input(type, event) else { return }
        sent += 1
        dispatcher.notify(RecordInput.self, input)
    }

    private static func input(_ type: CGEventType, _ event: CGEvent) -> RecordedInput? {
        let modifiers = modifiersOf(event.flags)
        let time = Date().timeIntervalSince1970 * 1000
        if type == .keyDown {
            let code = Int(event.getIntegerValueField(.keyboardEventKeycode))
            let plain = modifiers.allSatisfy { $0 == .shift }
            return RecordedInput(
                kind: .keyDown, code: code, text: plain ? typedText(event) : nil, modifiers: modifiers, time: time)
        }
        let button: MouseButton
        switch type {
        case .leftMouseDown, .leftMouseUp: button = .left
        case .rightMouseDown, .rightMouseUp: button = .right
        default:
            // Other buttons: only the middle one (button number 2) is one press_key and click know.
            guard event.getIntegerValueField(.mouseEventButtonNumber) == 2 else { return nil }
            button = .middle
        }
        let down = type == .leftMouseDown || type == .rightMouseDown || type == .otherMouseDown
        let at = Point(x: event.location.x, y: event.location.y)
        return RecordedInput(kind: down ? .buttonDown : .buttonUp, button: button, at: at, modifiers: modifiers, time: time)
    }

    /// The modifiers held. fn is left out: macOS sets it on arrows and function keys, which no one holds fn for.
    private static func modifiersOf(_ flags: CGEventFlags) -> [Modifier] {
        var held: [Modifier] = []
        if flags.contains(.maskCommand) { held.append(.command) }
        if flags.contains(.maskControl) { held.append(.control) }
        if flags.contains(.maskAlternate) { held.append(.option) }
        if flags.contains(.maskShift) { held.append(.shift) }
        return held
    }

    /// The character a key down types, or nil for control characters, DEL and the private-use range AppKit gives
    /// arrows and function keys.
    private static func typedText(_ event: CGEvent) -> String? {
        var units = [UniChar](repeating: 0, count: 8)
        var length = 0
        event.keyboardGetUnicodeString(maxStringLength: units.count, actualStringLength: &length, unicodeString: &units)
        guard length > 0 else { return nil }
        let text = String(utf16CodeUnits: units, count: length)
        guard let scalar = text.unicodeScalars.first else { return nil }
        if scalar.value < 0x20 || scalar.value == 0x7f || (0xF700...0xF8FF).contains(scalar.value) { return nil }
        return text
    }
}

/// The tap's C callback: listen-only, so the event goes on unchanged whatever is done here.
private func recordingTapCallback(
    proxy: CGEventTapProxy, type: CGEventType, event: CGEvent, userInfo: UnsafeMutableRawPointer?
) -> Unmanaged<CGEvent>? {
    MainActor.assumeIsolated {
        if type == .tapDisabledByTimeout || type == .tapDisabledByUserInput {
            Recording.reenable()
        } else {
            Recording.heard(type, event)
        }
    }
    return Unmanaged.passUnretained(event)
}
#endif

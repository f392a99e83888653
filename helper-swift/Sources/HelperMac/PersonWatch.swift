#if canImport(ApplicationServices)
@preconcurrency import ApplicationServices
import Foundation
import HelperCore

/// input.personFirst: a listen-only event tap on the login session that hears the person's keys, buttons, wheel
/// and pointer motion. Events this helper posts carry its own pid in kCGEventSourceUnixProcessID; any other
/// source (the HID system for a real device, or another process) is the person. What was heard goes to
/// Input.person, which input operations check. Like Recording, it needs the Input Monitoring permission.
@MainActor enum PersonWatch {
    private static var tap: CFMachPort?
    private static var source: CFRunLoopSource?
    /// Also read by Recording, which leaves this helper's own events out of a recording.
    static let ownPid = Int64(ProcessInfo.processInfo.processIdentifier)

    private static let watched: [CGEventType] = [
        .keyDown, .leftMouseDown, .rightMouseDown, .otherMouseDown, .mouseMoved, .leftMouseDragged,
        .rightMouseDragged, .scrollWheel,
    ]

    static func set(_ p: PersonFirstParams) -> PersonFirstResult {
        guard p.on else {
            stop()
            Input.person.configure(on: false, quietMs: p.quietMs)
            return PersonFirstResult(watching: false)
        }
        if tap == nil {
            guard CGPreflightListenEventAccess() else {
                return PersonFirstResult(
                    watching: false,
                    why: "macOS has not given macpilot Helper Input Monitoring, which hearing the person's input needs")
            }
            let mask = watched.reduce(CGEventMask(0)) { $0 | (CGEventMask(1) << $1.rawValue) }
            guard
                let port = CGEvent.tapCreate(
                    tap: .cgSessionEventTap, place: .headInsertEventTap, options: .listenOnly,
                    eventsOfInterest: mask, callback: personTapCallback, userInfo: nil)
            else { return PersonFirstResult(watching: false, why: "macOS refused a listen-only event tap") }
            let runLoopSource = CFMachPortCreateRunLoopSource(kCFAllocatorDefault, port, 0)
            CFRunLoopAddSource(CFRunLoopGetMain(), runLoopSource, .commonModes)
            CGEvent.tapEnable(tap: port, enable: true)
            tap = port
            source = runLoopSource
        }
        Input.person.configure(on: true, quietMs: p.quietMs)
        return PersonFirstResult(watching: true)
    }

    private static func stop() {
        guard let port = tap else { return }
        CGEvent.tapEnable(tap: port, enable: false)
        if let source { CFRunLoopRemoveSource(CFRunLoopGetMain(), source, .commonModes) }
        CFMachPortInvalidate(port)
        tap = nil
        source = nil
    }

    /// macOS turns a tap off when its callback is slow or on some user input; it is turned back on at once.
    fileprivate static func reenable() {
        if let tap { CGEvent.tapEnable(tap: tap, enable: true) }
    }

    fileprivate static func heard(_ type: CGEventType, _ event: CGEvent) {
        guard event.getIntegerValueField(.eventSourceUnixProcessID) != ownPid else { return }
        let kind: PersonAtTheDesk.Kind
        switch type {
        case .keyDown: kind = .key
        case .leftMouseDown, .rightMouseDown, .otherMouseDown: kind = .button
        default: kind = .motion
        }
        Input.person.heard(kind, device: kind == .key ? "keyboard" : "mouse or trackpad")
    }
}

/// The tap's C callback: listen-only, so the event goes on unchanged whatever is done here.
private func personTapCallback(
    proxy: CGEventTapProxy, type: CGEventType, event: CGEvent, userInfo: UnsafeMutableRawPointer?
) -> Unmanaged<CGEvent>? {
    MainActor.assumeIsolated {
        if type == .tapDisabledByTimeout || type == .tapDisabledByUserInput {
            PersonWatch.reenable()
        } else {
            PersonWatch.heard(type, event)
        }
    }
    return Unmanaged.passUnretained(event)
}
#endif

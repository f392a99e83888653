#if canImport(ApplicationServices)
@preconcurrency import ApplicationServices
import Foundation
import HelperCore

/// input.*: synthetic mouse and keyboard events through CGEvent, posted at the HID tap, so that they reach
/// whatever is under the pointer or has keyboard focus as a real device's would. One operation at a time, so
/// that two requests never interleave their presses. Modifiers travel as the events' flags; only input.button
/// and input.hold leave anything down, and what they hold is released when the helper exits
/// (releaseHeldInput).
enum Input {
    /// What input.button and input.hold left down.
    fileprivate static let held = HeldDown()

    /// kVK_Shift, kVK_Control, kVK_Option, kVK_Command, kVK_Function (Carbon's Events.h).
    private static func keyCode(of modifier: Modifier) -> CGKeyCode {
        switch modifier {
        case .shift: 0x38
        case .control: 0x3B
        case .option: 0x3A
        case .command, .super: 0x37
        case .fn: 0x3F
        }
    }

    static func button(_ p: ButtonParams) async throws -> Empty {
        // A release is never held back for the person: it gives the desk back.
        try await run(yields: p.down) { _ in
            let buttons = ButtonEvents.of(p.button)
            let at = try p.at.map(cgPoint) ?? pointerLocation()
            if p.at != nil { try post(mouse(.mouseMoved, at, .left), flags: []) }
            try post(mouse(p.down ? buttons.down : buttons.up, at, buttons.button, clickState: 1), flags: [])
            held.set(button: p.button, down: p.down)
        }
    }

    static func hold(_ p: HoldParams) async throws -> Empty {
        try await run(yields: p.down) { _ in
            let code = p.modifier.map(keyCode(of:)) ?? CGKeyCode(p.code ?? 0)
            if let modifier = p.modifier { held.set(modifier: modifier, down: p.down) }
            let event = CGEvent(keyboardEventSource: nil, virtualKey: code, keyDown: p.down)
            // A modifier key's own event carries the flags as they are after it (shift down: maskShift).
            try post(event, flags: [])
            if p.modifier == nil { held.set(key: code, down: p.down) }
        }
    }

    /// Release everything input.button and input.hold left down (the helper is exiting).
    static func releaseHeld() {
        let (buttons, keys, modifiers) = held.takeAll()
        for code in keys { try? post(CGEvent(keyboardEventSource: nil, virtualKey: code, keyDown: false), flags: []) }
        for modifier in modifiers {
            try? post(CGEvent(keyboardEventSource: nil, virtualKey: keyCode(of: modifier), keyDown: false), flags: [])
        }
        if let at = try? pointerLocation() {
            for button in buttons {
                let events = ButtonEvents.of(button)
                try? post(mouse(events.up, at, events.button, clickState: 1), flags: [])
            }
        }
    }
    private static let queue = SerialQueue()

    /// Pointer steps of a smooth move or drag, at least this many in a drag so that drag thresholds are crossed.
    private static let minDragSteps = 10
    private static let stepMilliseconds = 10.0
    /// kVK_Return and kVK_Tab (Carbon's Events.h), the same codes src/keys.ts gives "enter" and "tab".
    private static let returnKey: CGKeyCode = 0x24
    private static let tabKey: CGKeyCode = 0x30

    static func click(_ p: ClickParams) async throws -> Empty {
        try await run { started in
            let buttons = ButtonEvents.of(p.button)
            let flags = eventFlags(p.modifiers)
            let at = cgPoint(p.at)
            try post(mouse(.mouseMoved, at, .left), flags: flags)
            // The click state tells apps which click of a double or triple click each press is.
            for state in 1...p.count {
                try checkpoint(started)
                try post(mouse(buttons.down, at, buttons.button, clickState: state), flags: flags)
                try post(mouse(buttons.up, at, buttons.button, clickState: state), flags: flags)
            }
        }
    }

    static func move(_ p: MoveParams) async throws -> Empty {
        try await run { started in
            let to = cgPoint(p.to)
            // With a button held (input.button), a move is a drag to the app.
            let moving = held.buttons.last.map(ButtonEvents.of) ?? ButtonEvents.of(.left)
            let type: CGEventType = held.buttons.isEmpty ? .mouseMoved : moving.dragged
            if p.durationMs == 0 {
                try post(mouse(type, to, moving.button), flags: [])
                return
            }
            let steps = max(1, Int((Double(p.durationMs) / stepMilliseconds).rounded()))
            try await glide(from: try pointerLocation(), to: to, steps: steps, durationMs: p.durationMs, started) { point in
                try post(mouse(type, point, moving.button), flags: [])
            }
        }
    }

    static func drag(_ p: DragParams) async throws -> Empty {
        try await run { started in
            let buttons = ButtonEvents.of(p.button)
            let flags = eventFlags(p.modifiers)
            let from = cgPoint(p.from)
            let to = cgPoint(p.to)
            let steps = max(minDragSteps, Int((Double(p.durationMs) / stepMilliseconds).rounded()))
            try post(mouse(.mouseMoved, from, .left), flags: flags)
            try post(mouse(buttons.down, from, buttons.button, clickState: 1), flags: flags)
            do {
                try await glide(from: from, to: to, steps: steps, durationMs: p.durationMs, started) { point in
                    try post(mouse(buttons.dragged, point, buttons.button), flags: flags)
                }
            } catch {
                // Cancelled or failed half way: still release the button where the pointer is.
                try? post(mouse(buttons.up, pointerLocation(), buttons.button, clickState: 1), flags: flags)
                throw error
            }
            try post(mouse(buttons.up, to, buttons.button, clickState: 1), flags: flags)
        }
    }

    /// One line-unit wheel event per protocol step, as a notched mouse wheel sends them, or (unit pixel) one
    /// pixel-unit event. A positive wheel value scrolls up (or left), the protocol's positive dy down (dx
    /// right): hence the negation.
    static func scroll(_ p: ScrollParams) async throws -> Empty {
        try await run { started in
            let at = cgPoint(p.at)
            try post(mouse(.mouseMoved, at, .left), flags: [])
            if p.unit == .pixel {
                // One smooth-scroll event of exact pixels, as a trackpad sends them.
                let event = CGEvent(
                    scrollWheelEvent2Source: nil, units: .pixel, wheelCount: 2,
                    wheel1: Int32(-p.dy), wheel2: Int32(-p.dx), wheel3: 0
                )
                event?.location = at
                try post(event, flags: [])
                return
            }
            for step in 0..<max(abs(p.dy), abs(p.dx)) {
                try checkpoint(started)
                let vertical = step < abs(p.dy) ? Int32(-p.dy.signum()) : 0
                let horizontal = step < abs(p.dx) ? Int32(-p.dx.signum()) : 0
                let event = CGEvent(
                    scrollWheelEvent2Source: nil, units: .line, wheelCount: 2,
                    wheel1: vertical, wheel2: horizontal, wheel3: 0
                )
                event?.location = at
                try post(event, flags: [])
            }
        }
    }

    static func pointer() throws -> PointerResult {
        let location = try pointerLocation()
        return PointerResult(at: HelperCore.Point(x: Double(location.x), y: Double(location.y)))
    }

    static func type(_ p: TypeParams) async throws -> TypeResult {
        let strokes = try Keystroke.of(p.text, onePerCharacter: p.delayMs > 0)
        return try await withInputAccess {
            try await queue.run {
                let started = Date()
                try person.checkBefore(started)
                let gap = p.delayMs > 0 ? Double(p.delayMs) : Keystroke.chunkPauseMs
                var typed = 0
                for (index, stroke) in strokes.enumerated() {
                    // A cancelled request stops between two keys, whatever the gap, and says how far it got.
                    do {
                        try Task.checkCancellation()
                        if index > 0 { try await pause(milliseconds: gap) }
                    } catch is CancellationError {
                        throw RPCError(ErrorCode.requestCancelled, "input.type was cancelled", typed: typed)
                    }
                    do {
                        try person.checkDuring(since: started)
                    } catch let stopped as RPCError {
                        // How far the text got is part of the answer.
                        throw RPCError(
                            stopped.code,
                            "\(stopped.message): \(typed) of \(strokes.reduce(0) { $0 + $1.characters }) characters were typed",
                            hint: stopped.hint)
                    }
                    switch stroke.kind {
                    case .text(let units): try postText(units)
                    case .lineBreak: try postKey(returnKey, flags: [])
                    case .tab: try postKey(tabKey, flags: [])
                    }
                    typed += stroke.characters
                }
                return TypeResult(typed: strokes.reduce(0) { $0 + $1.characters })
            }
        }
    }

    static func key(_ p: KeyParams) async throws -> Empty {
        try await run { started in
            // The key that types the character under the current layout; the US place where no key does.
            let placed = await MainActor.run { p.character.flatMap(KeyboardLayout.key(typing:)) }
            let code = placed?.code ?? CGKeyCode(p.code)
            let flags = eventFlags(p.modifiers).union(placed?.shift == true ? .maskShift : [])
            for _ in 0..<p.repeatCount {
                try checkpoint(started)
                try postKey(code, flags: flags, toPid: p.pid.map { pid_t($0) })
            }
        }
    }

    // MARK: - Events

    /// The person's own input, heard by PersonWatch when input.personFirst is on.
    static let person = PersonAtTheDesk()

    /// Checks the permission, then runs `body` after every earlier input operation, with the time it started. One
    /// that `yields` does not start when the person has just used the mouse or keyboard (input.personFirst).
    private static func run(
        yields: Bool = true, _ body: @escaping @Sendable (Date) async throws -> Void
    ) async throws -> Empty {
        try await withInputAccess {
            try await queue.run {
                let started = Date()
                if yields { try person.checkBefore(started) }
                try await body(started)
                return Empty()
            }
        }
    }

    /// Between two strokes of an operation: a cancel, or the person's input since it started, stops the rest.
    private static func checkpoint(_ started: Date) throws {
        try Task.checkCancellation()
        try person.checkDuring(since: started)
    }

    /// Without the permission the system drops posted events without a word, so ask before posting.
    private static func withInputAccess<T>(_ body: () async throws -> T) async throws -> T {
        guard CGPreflightPostEventAccess() else { throw Privacy.accessibility.denied("synthetic input") }
        return try await body()
    }

    private struct ButtonEvents {
        let down: CGEventType
        let up: CGEventType
        let dragged: CGEventType
        let button: CGMouseButton

        static func of(_ button: MouseButton) -> ButtonEvents {
            switch button {
            case .left:
                ButtonEvents(down: .leftMouseDown, up: .leftMouseUp, dragged: .leftMouseDragged, button: .left)
            case .right:
                ButtonEvents(down: .rightMouseDown, up: .rightMouseUp, dragged: .rightMouseDragged, button: .right)
            case .middle:
                ButtonEvents(down: .otherMouseDown, up: .otherMouseUp, dragged: .otherMouseDragged, button: .center)
            }
        }
    }

    /// The protocol's "super" is the logo key of a PC keyboard, which macOS maps to Command.
    private static func eventFlags(_ modifiers: [Modifier]) -> CGEventFlags {
        modifiers.reduce(into: CGEventFlags()) { flags, modifier in
            switch modifier {
            case .command, .super: flags.insert(.maskCommand)
            case .control: flags.insert(.maskControl)
            case .option: flags.insert(.maskAlternate)
            case .shift: flags.insert(.maskShift)
            case .fn: flags.insert(.maskSecondaryFn)
            }
        }
    }

    /// Module-qualified: MacTypes.h, which Foundation brings in, declares QuickDraw's own `Point`.
    private static func cgPoint(_ point: HelperCore.Point) -> CGPoint {
        CGPoint(x: point.x, y: point.y)
    }

    private static func mouse(
        _ type: CGEventType, _ at: CGPoint, _ button: CGMouseButton, clickState: Int? = nil
    ) -> CGEvent? {
        let event = CGEvent(mouseEventSource: nil, mouseType: type, mouseCursorPosition: at, mouseButton: button)
        if let clickState { event?.setIntegerValueField(.mouseEventClickState, value: Int64(clickState)) }
        return event
    }

    /// Posts with `flags` and those of the modifier keys input.hold holds down (a held shift makes a click a
    /// shift-click).
    /// At the HID tap, where the focus and the pointer take it; or (`toPid`) to one process only, the focus left.
    private static func post(_ event: CGEvent?, flags: CGEventFlags, toPid pid: pid_t? = nil) throws {
        guard let event else {
            throw RPCError(ErrorCode.failed, "the system did not create the input event", hint: "try again")
        }
        event.flags = flags.union(eventFlags(held.modifiers))
        if let pid { event.postToPid(pid) } else { event.post(tap: .cghidEventTap) }
    }

    private static func postKey(_ code: CGKeyCode, flags: CGEventFlags, toPid pid: pid_t? = nil) throws {
        try post(CGEvent(keyboardEventSource: nil, virtualKey: code, keyDown: true), flags: flags, toPid: pid)
        try post(CGEvent(keyboardEventSource: nil, virtualKey: code, keyDown: false), flags: flags, toPid: pid)
    }

    /// Key 0 carrying the text: apps insert the event's Unicode string whatever the keyboard layout. No flags,
    /// so that a modifier the user holds does not turn the text into shortcuts.
    private static func postText(_ units: [UniChar]) throws {
        for down in [true, false] {
            let event = CGEvent(keyboardEventSource: nil, virtualKey: 0, keyDown: down)
            event?.keyboardSetUnicodeString(stringLength: units.count, unicodeString: units)
            try post(event, flags: [])
        }
    }

    private static func pointerLocation() throws -> CGPoint {
        guard let location = CGEvent(source: nil)?.location else {
            throw RPCError(ErrorCode.failed, "the system did not report the pointer's position", hint: "try again")
        }
        return location
    }

    /// Points along the straight line from `from` (excluded) to `to` (included), `durationMs` spread over them.
    private static func glide(
        from: CGPoint, to: CGPoint, steps: Int, durationMs: Int, _ started: Date, _ step: (CGPoint) throws -> Void
    ) async throws {
        for index in 1...steps {
            try checkpoint(started)
            let t = CGFloat(index) / CGFloat(steps)
            try step(CGPoint(x: from.x + (to.x - from.x) * t, y: from.y + (to.y - from.y) * t))
            try await pause(milliseconds: Double(durationMs) / Double(steps))
        }
    }
}
/// Buttons, keys and modifiers left down, safe to read from the stdin thread at exit.
final class HeldDown: @unchecked Sendable {
    private let lock = NSLock()
    private var heldButtons: [MouseButton] = []
    private var keys: [CGKeyCode] = []
    private var heldModifiers: [Modifier] = []

    var modifiers: [Modifier] { lock.withLock { heldModifiers } }
    var buttons: [MouseButton] { lock.withLock { heldButtons } }

    func set(button: MouseButton, down: Bool) {
        lock.withLock { heldButtons = update(heldButtons, button, down) }
    }

    func set(key: CGKeyCode, down: Bool) {
        lock.withLock { keys = update(keys, key, down) }
    }

    func set(modifier: Modifier, down: Bool) {
        lock.withLock { heldModifiers = update(heldModifiers, modifier, down) }
    }

    /// Everything held, last pressed first, and nothing held from now on.
    func takeAll() -> ([MouseButton], [CGKeyCode], [Modifier]) {
        lock.withLock {
            defer { heldButtons = []; keys = []; heldModifiers = [] }
            return (heldButtons.reversed(), keys.reversed(), heldModifiers.reversed())
        }
    }

    private func update<T: Equatable>(_ list: [T], _ item: T, _ down: Bool) -> [T] {
        let without = list.filter { $0 != item }
        return down ? without + [item] : without
    }
}

/// Called by the helper's main before it exits: nothing an agent held down stays pressed.
public func releaseHeldInput() {
    Input.releaseHeld()
}
#endif

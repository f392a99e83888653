#if canImport(ApplicationServices)
@preconcurrency import ApplicationServices
import Foundation
import HelperCore

/// ax.element, ax.perform, ax.setValue, ax.focus, ax.scrollIntoView: one element read in full, and acted on.
enum AXActions {
    /// How long an action's effect (a toggle flipping, focus moving) is awaited before the answer says what is.
    private static let settleSeconds = 1.0
    /// Longest text of an extra attribute in ElementDetail.attributes.
    private static let attributeTextLength = 1000

    static func element(_ params: ElementParams) async throws -> ElementResult {
        try await AppLanes.shared.run(handle: params.id) { element in
            var info = try ElementReader.info(element, maxValueLength: params.maxValueLength)
            try refine(&info, element)
            let limits = try AX.attributes(element, [AXKey.minValue.name, AXKey.maxValue.name])
            let detail = ElementDetail(
                info,
                actions: try AX.actionNames(element),
                attributes: try extraAttributes(element, secure: info.states.contains(.secure)),
                range: limits[AXKey.minValue].flatMap { min in limits[AXKey.maxValue].map { ValueRange(min: min, max: $0) } }
            )
            return ElementResult(element: detail)
        }
    }

    /// What only a detailed read tells (a round trip each): whether the element takes focus, and whether a
    /// text field's text can really be changed.
    private static func refine(_ info: inout ElementInfo, _ element: AXUIElement) throws {
        if try AX.isSettable(element, AXKey.focused) { info.states.append(.focusable) }
        if info.states.contains(.editable), try !AX.isSettable(element, AXKey.value) {
            info.states.removeAll { $0 == .editable }
            info.states.append(.readonly)
        }
    }

    /// Every other attribute in words, in one batched read. AXValue is `value` already; a secure field's
    /// selected text is part of its secret.
    private static func extraAttributes(_ element: AXUIElement, secure: Bool) throws -> [String: String] {
        let skipped: Set<String> = secure ? [AXKey.value.name, AXKey.selectedText.name] : [AXKey.value.name]
        let names = try AX.attributeNames(element).filter { !skipped.contains($0) }
        guard !names.isEmpty else { return [:] }
        return try AX.attributes(element, names).compactMapValues { value in
            AX.describe(value).map { ElementReader.truncate($0, attributeTextLength).0 }
        }
    }

    static func perform(_ params: PerformParams) async throws -> PerformResult {
        try await AppLanes.shared.run(handle: params.id) { element in
            let actions = try AX.actionNames(element)
            let exact = actions.first { $0 == params.action }
            guard
                let action = exact
                    ?? actions.first(where: { $0.caseInsensitiveCompare(params.action) == .orderedSame })
            else {
                throw RPCError(
                    ErrorCode.actionFailed,
                    "the element has no action \"\(params.action)\"",
                    hint: actions.isEmpty
                        ? "it has no actions; click it by position or act on its parent"
                        : "use one of its actions: \(actions.joined(separator: ", "))"
                )
            }
            try press(element, action)
            return PerformResult(performed: action)
        }
    }

    /// Performs an action. An action that opens a modal dialog (or starts a long task) answers only when the app's
    /// main thread is free again, so the call times out although the action happened; the app answered the call
    /// before this one, so such a timeout counts as done.
    private static func press(_ element: AXUIElement, _ action: String) throws {
        let code = AXUIElementPerformAction(element, action as CFString)
        switch code {
        case .success, .cannotComplete:
            return
        case .failure, .actionUnsupported, .illegalArgument:
            throw RPCError(
                ErrorCode.actionFailed,
                "the app refused the action \"\(action)\"",
                hint: "the element may be disabled or not ready; check its states and try again"
            )
        default:
            throw AX.failure(code, "performing \(action)")
        }
    }

    static func setValue(_ params: SetValueParams) async throws -> SetValueResult {
        try await AppLanes.shared.run(handle: params.id) { element in
            let kind = try AX.attributes(element, [AXKey.role.name, AXKey.subrole.name])
            let role = kind[AXKey.role] ?? "element"
            switch params.value {
            case .string(let text):
                let secure = kind[AXKey.subrole] == ElementReader.secureSubrole
                return try setText(element, secure: secure, text)
            case .number(let number):
                return try setNumber(element, role: role, number)
            case .bool(let on):
                return try setToggle(element, role: role, on)
            }
        }
    }

    /// `typeInstead`: the server types the text instead; `notTaken`: the value was wrong, not the element.
    private static func notSettable(
        _ why: String,
        _ hint: String,
        typeInstead: Bool = false,
        notTaken: Bool = false
    ) -> RPCError {
        RPCError(
            ErrorCode.valueNotSettable,
            "cannot set this value: \(why)",
            hint: hint,
            typeInstead: typeInstead,
            notTaken: notTaken
        )
    }

    /// Sets AXValue; a refusal by the app is valueNotSettable, a gone element or a busy app what it is.
    private static func write(_ element: AXUIElement, _ value: CFTypeRef, refused: RPCError) throws {
        let code = AXUIElementSetAttributeValue(element, AXKey.value.name as CFString, value)
        switch code {
        case .success:
            return
        case .invalidUIElement, .cannotComplete, .apiDisabled:
            throw AX.failure(code, "setting its value")
        default:
            throw refused
        }
    }

    private static func setText(
        _ element: AXUIElement,
        secure: Bool,
        _ text: String
    ) throws -> SetValueResult {
        let current = try secure ? nil : AX.read(element, AXKey.value)
        guard try AX.isSettable(element, AXKey.value), current == nil || AX.string(current) != nil else {
            let editable = try ElementReader.editableRoles.contains(AX.read(element, AXKey.role) ?? "")
            throw notSettable(
                "it does not hold editable text",
                editable ? "type the text instead" : "set text on a text field, or type into it",
                typeInstead: editable
            )
        }
        try write(
            element,
            text as CFString,
            refused: notSettable("the app refused the text", "type the text instead", typeInstead: true)
        )
        // A secure field never yields its value, not even back to the caller.
        if secure { return SetValueResult(value: nil) }
        return SetValueResult(value: try AX.string(AX.read(element, AXKey.value)).map { .string($0) })
    }

    private static func setNumber(_ element: AXUIElement, role: String, _ number: Double) throws -> SetValueResult {
        let read = try AX.attributes(element, [AXKey.value.name, AXKey.minValue.name, AXKey.maxValue.name])
        let isNumber = AX.number(read[AXKey.value]) != nil && AX.string(read[AXKey.value]) == nil
        guard !ElementReader.toggleRoles.contains(role), isNumber, try AX.isSettable(element, AXKey.value) else {
            throw notSettable("it has no numeric value", "use a string for text fields, a boolean for toggles")
        }
        let min = read[AXKey.minValue] ?? -Double.infinity
        let max = read[AXKey.maxValue] ?? Double.infinity
        guard number >= min && number <= max else {
            throw notSettable(
                "\(number) is outside \(min)...\(max)",
                "use a number from \(min) to \(max)",
                notTaken: true
            )
        }
        try write(
            element,
            NSNumber(value: number),
            refused: notSettable("the app refused \(number)", "use the control's own steps", notTaken: true)
        )
        return SetValueResult(value: try AX.number(AX.read(element, AXKey.value)).map { .number($0) })
    }

    /// A toggle is pressed when its state differs from the one asked for.
    private static func setToggle(_ element: AXUIElement, role: String, _ on: Bool) throws -> SetValueResult {
        guard ElementReader.toggleRoles.contains(role) else {
            throw notSettable(
                "it is not a toggle",
                "use a boolean only for check boxes, switches and radio buttons"
            )
        }
        let isOn = { () throws -> Bool in AX.number(try AX.read(element, AXKey.value)) == 1 }
        if try isOn() == on { return SetValueResult(value: .bool(on)) }
        guard try AX.actionNames(element).contains("AXPress") else {
            throw notSettable("the \(role) cannot be pressed", "click it instead")
        }
        try press(element, "AXPress")
        let flipped = try settle { try isOn() == on }
        return SetValueResult(value: .bool(flipped ? on : !on))
    }

    static func focus(_ params: HandleParams) async throws -> FocusResult {
        try await AppLanes.shared.run(handle: params.id) { element in
            let role = try AX.read(element, AXKey.role) ?? "element"
            if role == "AXWindow" { return FocusResult(focused: try raise(element)) }
            guard try AX.isSettable(element, AXKey.focused) else {
                throw RPCError(
                    ErrorCode.actionFailed,
                    "a \(role) cannot take keyboard focus",
                    hint: "focus a focusable element (a field, button or list) or click this one"
                )
            }
            let isFocused = { () throws -> Bool in try AX.read(element, AXKey.focused) == true }
            if try isFocused() { return FocusResult(focused: true) }
            try AX.set(element, AXKey.focused, kCFBooleanTrue)
            return FocusResult(focused: try settle(isFocused))
        }
    }

    /// A window gets focus by being raised in its app, made main, and its app brought to the front.
    private static func raise(_ window: AXUIElement) throws -> Bool {
        let pid = AX.pid(window)
        try press(window, "AXRaise")
        _ = AXUIElementSetAttributeValue(window, AXKey.main.name as CFString, kCFBooleanTrue)
        Apps.bringToFront(pid)
        let app = AppLanes.shared.application(pid)
        return try settle {
            guard let focused = try AX.read(app, AXKey.focusedWindow) else { return false }
            return CFEqual(focused, window) && Apps.isActive(pid)
        }
    }

    static func scrollIntoView(_ params: HandleParams) async throws -> ScrollIntoViewResult {
        try await AppLanes.shared.run(handle: params.id) { element in
            guard try AX.actionNames(element).contains("AXScrollToVisible") else {
                throw RPCError(
                    ErrorCode.notAvailable,
                    "the element offers no scroll-to-visible action",
                    hint: "scroll its container with the wheel"
                )
            }
            try press(element, "AXScrollToVisible")
            let frame = try AX.attributes(element, [AXKey.position.name, AXKey.size.name])
            return ScrollIntoViewResult(bounds: AX.bounds(frame))
        }
    }

    /// Polls `done` (on the app's lane, which only this request holds) until it is true or the settle time is
    /// over; answers whether it became true.
    private static func settle(_ done: () throws -> Bool) throws -> Bool {
        let deadline = Date().addingTimeInterval(settleSeconds)
        while true {
            if try done() { return true }
            if Date() >= deadline { return false }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }
}
#endif

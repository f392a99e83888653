#if canImport(ApplicationServices)
@preconcurrency import ApplicationServices
import Foundation
import HelperCore

/// Reads one element into an ElementInfo: one batched read of the attributes below, a count of its children,
/// and, only for roles that carry one, its AXValue in a read of its own, so that a secure field's value is never
/// fetched at all. Call on the element's app lane.
enum ElementReader {
    static let secureSubrole = "AXSecureTextField"

    private static let batch = [
        AXKey.role.name, AXKey.subrole.name, AXKey.title.name, AXKey.description.name, AXKey.help.name,
        AXKey.identifier.name, AXKey.titleUIElement.name, AXKey.enabled.name, AXKey.focused.name,
        AXKey.selected.name, AXKey.expanded.name, AXKey.disclosing.name, AXKey.hidden.name, AXKey.minimized.name,
        AXKey.modal.name, AXKey.main.name, AXKey.frontmost.name, AXKey.menuItemMarkChar.name, AXKey.required.name,
        AXKey.elementBusy.name, AXKey.position.name, AXKey.size.name, AXKey.menuItemCmdChar.name,
        AXKey.menuItemCmdModifiers.name, AXKey.window.name,
    ]

    /// Roles whose AXValue is their checked state: 0 off, 1 on, 2 mixed (switches and toggles are subroles).
    static let toggleRoles: Set<String> = ["AXCheckBox", "AXRadioButton"]
    /// Roles whose AXValue is a number.
    private static let numberRoles: Set<String> = [
        "AXSlider", "AXIncrementor", "AXScrollBar", "AXProgressIndicator", "AXLevelIndicator",
        "AXValueIndicator", "AXRelevanceIndicator",
    ]
    /// Roles whose AXValue is their text, read up to maxValueLength.
    private static let textRoles: Set<String> = ["AXTextField", "AXTextArea", "AXComboBox", "AXDateField", "AXPopUpButton"]
    /// Text roles a person types into.
    static let editableRoles: Set<String> = ["AXTextField", "AXTextArea", "AXComboBox", "AXDateField"]
    /// A web heading: WebKit and Chromium give its level (1 to 6) as its AXValue.
    private static let heading = "AXHeading"
    /// A label: its AXValue is its text, which becomes its name.
    private static let staticText = "AXStaticText"
    /// AXValue 1 means open.
    private static let disclosureTriangle = "AXDisclosureTriangle"

    /// The default buttons of the windows met during one walk, each window asked once (AXDefaultButton).
    final class DefaultButtons {
        private var known: [(window: AXUIElement, button: AXUIElement?)] = []

        func isDefault(_ button: AXUIElement, in window: AXUIElement) -> Bool {
            let defaultButton: AXUIElement?
            if let entry = known.first(where: { CFEqual($0.window, window) }) {
                defaultButton = entry.button
            } else {
                defaultButton = try? AX.read(window, AXKey.defaultButton)
                known.append((window, defaultButton))
            }
            return defaultButton.map { CFEqual($0, button) } ?? false
        }
    }

    struct Read {
        let info: ElementInfo
        /// AXHidden: left out of snapshots unless includeHidden.
        let hidden: Bool
    }

    static func info(_ element: AXUIElement, maxValueLength: Int) throws -> ElementInfo {
        try read(element, maxValueLength: maxValueLength, bounds: true).info
    }

    /// `defaults`: shared by the reads of one walk, so that each window's default button is asked for once.
    static func read(
        _ element: AXUIElement,
        maxValueLength: Int,
        bounds: Bool,
        defaults: DefaultButtons = DefaultButtons()
    ) throws -> Read {
        let attributes = try AX.attributes(element, batch)
        let role = attributes[AXKey.role] ?? "AXUnknown"
        let subrole = attributes[AXKey.subrole]
        let isDefault = role == "AXButton" && attributes[AXKey.window].map { defaults.isDefault(element, in: $0) } == true
        let raw = try rawValue(element, role: role, subrole: subrole, maxValueLength: maxValueLength)
        let childCount = try AX.count(element, AXKey.children)

        var name = [attributes[AXKey.title], attributes[AXKey.description]].compactMap { $0 }.first { !$0.isEmpty }
        if name == nil, let label = attributes[AXKey.titleUIElement] { name = labelText(label) }
        if name == nil, role == staticText { name = AX.string(raw) }
        let title = name ?? ""

        var value: ElementValue?
        var truncated = false
        let level = role == heading ? AX.number(raw).flatMap { Int(exactly: $0) }.flatMap { (1...9).contains($0) ? $0 : nil } : nil
        if let raw, role != staticText, role != heading, !toggleRoles.contains(role), role != disclosureTriangle {
            (value, truncated) = typed(raw, maxValueLength)
        }
        let toggle = toggleRoles.contains(role) || role == disclosureTriangle ? AX.number(raw) : nil
        if toggleRoles.contains(role), let toggle { value = .bool(toggle == 1) }

        let description = [attributes[AXKey.description], attributes[AXKey.help]].compactMap { $0 }
            .first { !$0.isEmpty && $0 != title }
        let info = ElementInfo(
            id: AppLanes.shared.handles.handle(for: element),
            nativeRole: role,
            subrole: subrole,
            name: title,
            value: value,
            valueTruncated: truncated ? true : nil,
            description: description,
            identifier: attributes[AXKey.identifier].flatMap { $0.isEmpty ? nil : $0 },
            states: states(attributes, role: role, subrole: subrole, toggle: toggle) + (isDefault ? [.default] : []),
            bounds: bounds ? AX.bounds(attributes) : nil,
            shortcut: shortcut(attributes),
            level: level,
            childCount: childCount,
            pid: AX.pid(element)
        )
        return Read(info: info, hidden: attributes[AXKey.hidden] == true)
    }

    /// A menu item's shortcut as press_key takes it: "Cmd+Shift+S". AXMenuItemCmdModifiers bits: 1 Shift,
    /// 2 Option, 4 Control, 8 no Command. Items whose key has no character (F keys) are left out.
    private static func shortcut(_ attributes: [String: CFTypeRef]) -> String? {
        guard let key = attributes[AXKey.menuItemCmdChar], !key.isEmpty else { return nil }
        let bits = Int(attributes[AXKey.menuItemCmdModifiers] ?? 0)
        let names = [(4, "Ctrl"), (2, "Option"), (1, "Shift")].filter { bits & $0.0 != 0 }.map { $0.1 }
        return ((bits & 8 == 0 ? ["Cmd"] : []) + names + [key.uppercased()]).joined(separator: "+")
    }

    /// The AXValue, read only for roles that carry one, and never for a secure field.
    private static func rawValue(
        _ element: AXUIElement,
        role: String,
        subrole: String?,
        maxValueLength: Int
    ) throws -> CFTypeRef? {
        if subrole == secureSubrole { return nil }
        let wanted = toggleRoles.contains(role) || numberRoles.contains(role) || role == staticText
            || role == disclosureTriangle || role == heading || (textRoles.contains(role) && maxValueLength > 0)
        return try wanted ? AX.read(element, AXKey.value) : nil
    }

    /// A value by its type: text (cut to maxValueLength), a boolean or a number.
    static func typed(_ raw: CFTypeRef, _ maxValueLength: Int) -> (ElementValue?, Bool) {
        if let text = AX.string(raw) {
            let (cut, truncated) = truncate(text, maxValueLength)
            return (.string(cut), truncated)
        }
        if AX.isBoolean(raw), let flag = AX.bool(raw) { return (.bool(flag), false) }
        if let number = AX.number(raw) { return (.number(number), false) }
        return (nil, false)
    }

    /// Cut at a code point boundary, as the TypeScript side counts.
    static func truncate(_ text: String, _ max: Int) -> (String, Bool) {
        let scalars = text.unicodeScalars
        guard scalars.count > max else { return (text, false) }
        return (String(String.UnicodeScalarView(scalars.prefix(max))), true)
    }

    /// The text of an element's label (AXTitleUIElement): its title, or its value for a static text.
    private static func labelText(_ label: AXUIElement) -> String? {
        guard let attributes = try? AX.attributes(label, [AXKey.title.name, AXKey.value.name]) else { return nil }
        return [attributes[AXKey.title], AX.string(attributes[AXKey.value])].compactMap { $0 }.first { !$0.isEmpty }
    }

    /// The protocol's state words from the batch; `toggle` is the AXValue of a check box, radio button or
    /// disclosure triangle.
    private static func states(
        _ attributes: [String: CFTypeRef],
        role: String,
        subrole: String?,
        toggle: Double?
    ) -> [ElementState] {
        let flag = { (key: AttributeKey<Bool>) in attributes[key] == true }
        let enabled = attributes[AXKey.enabled] != false
        let marked = !(attributes[AXKey.menuItemMarkChar] ?? "").isEmpty
        let open = attributes[AXKey.expanded] ?? attributes[AXKey.disclosing]
            ?? (role == disclosureTriangle ? toggle.map { $0 == 1 } : nil)
        var states: [ElementState] = []
        if flag(AXKey.focused) { states.append(.focused) }
        if !enabled { states.append(.disabled) }
        if flag(AXKey.selected) { states.append(.selected) }
        if (toggleRoles.contains(role) && toggle == 1) || marked { states.append(.checked) }
        if toggleRoles.contains(role) && toggle == 2 { states.append(.mixed) }
        if let open { states.append(open ? .expanded : .collapsed) }
        if editableRoles.contains(role) && enabled { states.append(.editable) }
        if role == "AXTextArea" { states.append(.multiline) }
        if flag(AXKey.hidden) { states.append(.offscreen) }
        if subrole == secureSubrole { states.append(.secure) }
        if flag(AXKey.modal) { states.append(.modal) }
        if flag(AXKey.required) { states.append(.required) }
        if flag(AXKey.elementBusy) { states.append(.busy) }
        if flag(AXKey.main) || flag(AXKey.frontmost) { states.append(.active) }
        if flag(AXKey.minimized) { states.append(.minimized) }
        return states
    }
}
#endif

#if canImport(ApplicationServices)
@preconcurrency import ApplicationServices
import Foundation
import HelperCore

/// The AX attributes HelperMac reads or sets, each with the type its value is read as (HelperCore's
/// AttributeKey): `AX.read(element, AXKey.title)` is a String?, a batched read's `values[AXKey.enabled]` a Bool?.
enum AXKey {
    static let role: AttributeKey<String> = .string("AXRole")
    static let subrole: AttributeKey<String> = .string("AXSubrole")
    static let title: AttributeKey<String> = .string("AXTitle")
    static let description: AttributeKey<String> = .string("AXDescription")
    static let help: AttributeKey<String> = .string("AXHelp")
    static let identifier: AttributeKey<String> = .string("AXIdentifier")
    static let menuItemMarkChar: AttributeKey<String> = .string("AXMenuItemMarkChar")
    static let selectedText: AttributeKey<String> = .string("AXSelectedText")
    static let menuItemCmdChar: AttributeKey<String> = .string("AXMenuItemCmdChar")

    static let enabled: AttributeKey<Bool> = .bool("AXEnabled")
    static let focused: AttributeKey<Bool> = .bool("AXFocused")
    static let selected: AttributeKey<Bool> = .bool("AXSelected")
    static let expanded: AttributeKey<Bool> = .bool("AXExpanded")
    static let disclosing: AttributeKey<Bool> = .bool("AXDisclosing")
    static let hidden: AttributeKey<Bool> = .bool("AXHidden")
    static let minimized: AttributeKey<Bool> = .bool("AXMinimized")
    static let modal: AttributeKey<Bool> = .bool("AXModal")
    static let main: AttributeKey<Bool> = .bool("AXMain")
    static let frontmost: AttributeKey<Bool> = .bool("AXFrontmost")
    static let required: AttributeKey<Bool> = .bool("AXRequired")
    static let elementBusy: AttributeKey<Bool> = .bool("AXElementBusy")
    /// Electron and Chromium build their tree only once this is set.
    static let manualAccessibility: AttributeKey<Bool> = .bool("AXManualAccessibility")
    /// VoiceOver's switch, which Chrome-family browsers that ignore AXManualAccessibility build their tree on.
    static let enhancedUserInterface: AttributeKey<Bool> = .bool("AXEnhancedUserInterface")

    static let minValue: AttributeKey<Double> = .number("AXMinValue")
    static let maxValue: AttributeKey<Double> = .number("AXMaxValue")
    /// Bits: 1 Shift, 2 Option, 4 Control, 8 no Command.
    static let menuItemCmdModifiers: AttributeKey<Double> = .number("AXMenuItemCmdModifiers")

    /// AXValue as the app hands it over: text, a number or a boolean, by role.
    static let value = AttributeKey<AnyObject>("AXValue") { $0 }
    static let position = AttributeKey<CGPoint>("AXPosition") { AX.point($0) }
    static let size = AttributeKey<CGSize>("AXSize") { AX.size($0) }

    static let titleUIElement = AttributeKey<AXUIElement>("AXTitleUIElement") { AX.element($0) }
    static let parent = AttributeKey<AXUIElement>("AXParent") { AX.element($0) }
    static let focusedUIElement = AttributeKey<AXUIElement>("AXFocusedUIElement") { AX.element($0) }
    static let focusedWindow = AttributeKey<AXUIElement>("AXFocusedWindow") { AX.element($0) }
    static let closeButton = AttributeKey<AXUIElement>("AXCloseButton") { AX.element($0) }
    /// An element's window; a window's default button (what Return presses).
    static let window = AttributeKey<AXUIElement>("AXWindow") { AX.element($0) }
    static let defaultButton = AttributeKey<AXUIElement>("AXDefaultButton") { AX.element($0) }
    static let children = AttributeKey<[AXUIElement]>("AXChildren") { $0 as? [AXUIElement] }
    static let windows = AttributeKey<[AXUIElement]>("AXWindows") { $0 as? [AXUIElement] }
}
#endif

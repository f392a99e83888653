import Foundation

// Codable mirrors of src/helper-client/protocol.ts: the same JSON keys, optional where the schema says optional.
// Synthesized encoding leaves nil optionals out, as the schema's `.optional()` expects; the two `.nullable()`
// results (ax.focused, ax.elementAt) encode an explicit null.

public let PROTOCOL_VERSION = 1

/// Params whose ranges and lengths the dispatcher checks after decoding; a failed check answers invalid params.
public protocol ValidatedParams {
    func validate() throws
}

func require(_ ok: Bool, _ message: @autoclosure () -> String) throws {
    if !ok { throw RPCError(ErrorCode.invalidParams, message()) }
}

func require(_ value: Int, in range: ClosedRange<Int>, _ field: String) throws {
    try require(range.contains(value), "\(field) must be within \(range.lowerBound)...\(range.upperBound), got \(value)")
}

func requireHandle(_ handle: String, _ field: String) throws {
    try require(!handle.isEmpty && handle.count <= 512, "\(field) must be a handle of 1 to 512 characters")
}

// MARK: - Shared types

public struct Bounds: Codable, Equatable, Sendable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

public struct Point: Codable, Equatable, Sendable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// Normalized states, the same words on every platform.
public enum ElementState: String, Codable, CaseIterable, Sendable {
    case focused, focusable, disabled, selected, selectable, checked, mixed, pressed, expanded, collapsed
    case editable, readonly, multiline, offscreen, secure, modal, required, invalid, busy, active, minimized
    /// The dialog's default button: the one Enter presses.
    case `default`
}

/// Text, number or toggle state, encoded as a plain JSON string, number or boolean.
public enum ElementValue: Codable, Equatable, Sendable {
    case string(String)
    case number(Double)
    case bool(Bool)

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        // Bool first: Foundation's decoders refuse a JSON number as Bool and a JSON boolean as Double.
        if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else {
            throw DecodingError.typeMismatch(
                ElementValue.self,
                .init(codingPath: decoder.codingPath, debugDescription: "expected a string, a number or a boolean")
            )
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let text): try container.encode(text)
        case .number(let number): try container.encode(number)
        case .bool(let flag): try container.encode(flag)
        }
    }
}

/// One element without its subtree.
public struct ElementInfo: Codable, Equatable, Sendable {
    public var id: String
    /// The platform's own role, e.g. "AXButton".
    public var nativeRole: String
    public var subrole: String?
    public var name: String
    /// Never present for secure fields.
    public var value: ElementValue?
    /// True when `value` was cut to the requested maximum length.
    public var valueTruncated: Bool?
    public var description: String?
    /// AXIdentifier.
    public var identifier: String?
    public var states: [ElementState]
    /// Screen points, origin at the top left of the primary display.
    public var bounds: Bounds?
    /// A menu item's keyboard shortcut as press_key takes it, e.g. "Cmd+Shift+S".
    public var shortcut: String?
    /// A heading's level, 1 to 9 (1: the page's title), where the platform says.
    public var level: Int?
    public var childCount: Int
    /// A walk of a long container that took only the children on screen: the first one's index among all
    /// `childCount`, and how many were taken. Absent: every child was considered.
    public var shownChildren: ShownChildren?
    public var pid: Int32

    public init(
        id: String,
        nativeRole: String,
        subrole: String? = nil,
        name: String,
        value: ElementValue? = nil,
        valueTruncated: Bool? = nil,
        description: String? = nil,
        identifier: String? = nil,
        states: [ElementState],
        bounds: Bounds? = nil,
        shortcut: String? = nil,
        level: Int? = nil,
        childCount: Int,
        shownChildren: ShownChildren? = nil,
        pid: Int32
    ) {
        self.id = id
        self.nativeRole = nativeRole
        self.subrole = subrole
        self.name = name
        self.value = value
        self.valueTruncated = valueTruncated
        self.description = description
        self.identifier = identifier
        self.states = states
        self.bounds = bounds
        self.shortcut = shortcut
        self.level = level
        self.childCount = childCount
        self.shownChildren = shownChildren
        self.pid = pid
    }
}

public struct ShownChildren: Codable, Equatable, Sendable {
    public var from: Int
    public var count: Int

    public init(from: Int, count: Int) {
        self.from = from
        self.count = count
    }
}

/// An element with as much of its subtree as a walk collected (`children` nil: not walked).
/// Encoded flat: the element's own fields plus `children`, as in protocol.ts.
public struct ElementNode: Codable, Equatable, Sendable {
    public var info: ElementInfo
    public var children: [ElementNode]?

    public init(_ info: ElementInfo, children: [ElementNode]? = nil) {
        self.info = info
        self.children = children
    }

    private enum CodingKeys: String, CodingKey {
        case children
    }

    public init(from decoder: Decoder) throws {
        info = try ElementInfo(from: decoder)
        children = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent([ElementNode].self, forKey: .children)
    }

    public func encode(to encoder: Encoder) throws {
        try info.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(children, forKey: .children)
    }
}

/// Everything the helper knows of one element: the basics plus its actions and extra attributes. Encoded flat.
public struct ElementDetail: Codable, Equatable, Sendable {
    public var info: ElementInfo
    public var actions: [String]
    public var attributes: [String: String]
    /// Its place among its parent's children, where the platform says.
    public var indexInParent: Int?
    /// A numeric value's bounds (a slider, a scroll bar), where the platform says.
    public var range: ValueRange?

    public init(
        _ info: ElementInfo,
        actions: [String],
        attributes: [String: String],
        indexInParent: Int? = nil,
        range: ValueRange? = nil
    ) {
        self.info = info
        self.actions = actions
        self.attributes = attributes
        self.indexInParent = indexInParent
        self.range = range
    }

    private enum CodingKeys: String, CodingKey {
        case actions, attributes, indexInParent, range
    }

    public init(from decoder: Decoder) throws {
        info = try ElementInfo(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        actions = try container.decode([String].self, forKey: .actions)
        attributes = try container.decode([String: String].self, forKey: .attributes)
        indexInParent = try container.decodeIfPresent(Int.self, forKey: .indexInParent)
        range = try container.decodeIfPresent(ValueRange.self, forKey: .range)
    }

    public func encode(to encoder: Encoder) throws {
        try info.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(actions, forKey: .actions)
        try container.encode(attributes, forKey: .attributes)
        try container.encodeIfPresent(indexInParent, forKey: .indexInParent)
        try container.encodeIfPresent(range, forKey: .range)
    }
}

public struct ValueRange: Codable, Equatable, Sendable {
    public var min: Double
    public var max: Double

    public init(min: Double, max: Double) {
        self.min = min
        self.max = max
    }
}

public struct AppInfo: Codable, Equatable, Sendable {
    public var pid: Int32
    public var name: String
    public var bundleId: String?
    /// Handle of the app's accessibility root.
    public var id: String
    public var active: Bool
    /// The app did not answer the accessibility API in time: its process is stopped or busy; its name is then
    /// its program's. Absent when it answered.
    public var notAnswering: NotAnswering?

    public enum NotAnswering: String, Codable, Equatable, Sendable {
        case stopped, busy
    }

    public init(
        pid: Int32,
        name: String,
        bundleId: String? = nil,
        id: String,
        active: Bool,
        notAnswering: NotAnswering? = nil
    ) {
        self.pid = pid
        self.name = name
        self.bundleId = bundleId
        self.id = id
        self.active = active
        self.notAnswering = notAnswering
    }
}

public struct Capability: Codable, Equatable, Sendable {
    public var available: Bool
    /// What is there, or why it is not, in words a person can act on.
    public var detail: String

    public init(available: Bool, detail: String) {
        self.available = available
        self.detail = detail
    }
}

public enum MouseButton: String, Codable, Sendable {
    case left, right, middle
}

public enum Modifier: String, Codable, CaseIterable, Sendable {
    case command, control, option, shift, `super`, fn
}

public struct DisplayInfo: Codable, Equatable, Sendable {
    public var id: String
    /// Screen points.
    public var bounds: Bounds
    /// Pixels per point (2 on a Retina display).
    public var scale: Double
    public var primary: Bool
    public var name: String?

    public init(id: String, bounds: Bounds, scale: Double, primary: Bool, name: String? = nil) {
        self.id = id
        self.bounds = bounds
        self.scale = scale
        self.primary = primary
        self.name = name
    }
}

public struct WindowInfo: Codable, Equatable, Sendable {
    /// The CGWindowID as a string.
    public var id: String
    public var pid: Int32
    public var app: String
    public var title: String
    /// Screen points, frame included.
    public var bounds: Bounds
    public var minimized: Bool
    public var focused: Bool

    public init(id: String, pid: Int32, app: String, title: String, bounds: Bounds, minimized: Bool, focused: Bool) {
        self.id = id
        self.pid = pid
        self.app = app
        self.title = title
        self.bounds = bounds
        self.minimized = minimized
        self.focused = focused
    }
}

public enum ImageFormat: String, Codable, Sendable {
    case png, jpeg
}

/// What a capture covers: exactly one of `{display}`, `{window}`, `{region}`.
public enum CaptureTarget: Codable, Equatable, Sendable {
    case display(String)
    case window(String)
    case region(Bounds)

    private enum CodingKeys: String, CodingKey {
        case display, window, region
    }

    /// Any key, so that an unknown one is seen (the schema's objects are strict).
    private struct AnyKey: CodingKey {
        let stringValue: String
        let intValue: Int? = nil
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { return nil }
    }

    public init(from decoder: Decoder) throws {
        let keys = try decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue)
        guard keys.count == 1 else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: decoder.codingPath,
                debugDescription: "expected exactly one of display, window or region, got [\(keys.joined(separator: ", "))]"
            ))
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let display = try container.decodeIfPresent(String.self, forKey: .display) {
            self = .display(display)
        } else if let window = try container.decodeIfPresent(String.self, forKey: .window) {
            self = .window(window)
        } else if let region = try container.decodeIfPresent(Bounds.self, forKey: .region) {
            self = .region(region)
        } else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: decoder.codingPath,
                debugDescription: "expected display, window or region, got \(keys[0])"
            ))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .display(let id): try container.encode(id, forKey: .display)
        case .window(let id): try container.encode(id, forKey: .window)
        case .region(let bounds): try container.encode(bounds, forKey: .region)
        }
    }
}

/// `{}`: the params of methods that take none, and the result of methods that answer nothing.
public struct Empty: Codable, Equatable, Sendable {
    public init() {}
}

// MARK: - system

public struct HelloParams: Codable, Sendable {
    public var protocolVersion: Int
    public var client: String
}

public enum Platform: String, Codable, Sendable {
    case linux, darwin
}

public struct Capabilities: Codable, Equatable, Sendable {
    public var accessibility: Capability
    public var display: Capability
    public var input: Capability
    /// Screenshots (the Screen Recording permission).
    public var screenCapture: Capability
    /// Recording what a person types and clicks (the Input Monitoring permission); only start_recording needs it.
    public var recording: Capability?

    public init(
        accessibility: Capability, display: Capability, input: Capability, screenCapture: Capability,
        recording: Capability? = nil
    ) {
        self.accessibility = accessibility
        self.display = display
        self.input = input
        self.screenCapture = screenCapture
        self.recording = recording
    }
}

public struct HelloResult: Codable, Sendable {
    public var protocolVersion: Int
    public var helperVersion: String
    public var platform: Platform
    public var capabilities: Capabilities

    public init(protocolVersion: Int, helperVersion: String, platform: Platform, capabilities: Capabilities) {
        self.protocolVersion = protocolVersion
        self.helperVersion = helperVersion
        self.platform = platform
        self.capabilities = capabilities
    }
}

// MARK: - apps

public struct AppsListResult: Codable, Sendable {
    public var apps: [AppInfo]
    public init(apps: [AppInfo]) { self.apps = apps }
}

public struct LaunchParams: Codable, Sendable, ValidatedParams {
    public var name: String
    public var timeoutMs: Int

    public func validate() throws {
        try require(!name.isEmpty && name.count <= 256, "name must be 1 to 256 characters")
        try require(timeoutMs, in: 100...60000, "timeoutMs")
    }
}

public struct LaunchResult: Codable, Sendable {
    public var app: AppInfo
    public var alreadyRunning: Bool
    public init(app: AppInfo, alreadyRunning: Bool) {
        self.app = app
        self.alreadyRunning = alreadyRunning
    }
}

public struct ActivateParams: Codable, Sendable {
    public var pid: Int32
}

public struct ActivateResult: Codable, Sendable {
    public var activated: Bool
    public init(activated: Bool) { self.activated = activated }
}

public struct QuitParams: Codable, Sendable, ValidatedParams {
    public var pid: Int32
    public var force: Bool
    public var timeoutMs: Int

    public func validate() throws {
        try require(timeoutMs, in: 0...60000, "timeoutMs")
    }
}

public struct QuitResult: Codable, Sendable {
    public var exited: Bool
    public init(exited: Bool) { self.exited = exited }
}

// MARK: - ax

public struct SnapshotParams: Codable, Sendable, ValidatedParams {
    public var root: String
    public var depth: Int
    public var maxNodes: Int
    public var includeHidden: Bool
    public var maxValueLength: Int
    /// Also read each element's bounds.
    public var includeBounds: Bool?
    /// A search's text, which a helper may use to read the rows of a long list by their names first. HelperMac
    /// walks every child in full, which answers the same (the server filters), only slower on long lists.
    public var nameFilter: String?

    public func validate() throws {
        try requireHandle(root, "root")
        try require(depth, in: 0...64, "depth")
        try require(maxNodes, in: 1...50000, "maxNodes")
        try require(maxValueLength, in: 0...1_000_000, "maxValueLength")
        if let nameFilter {
            // protocol.ts counts UTF-16 code units, as JavaScript's length does.
            try require((1...500).contains(nameFilter.utf16.count), "nameFilter must be 1 to 500 characters")
        }
    }
}

public struct SnapshotResult: Codable, Sendable {
    public var root: ElementNode
    public var nodeCount: Int
    /// True when maxNodes stopped the walk before depth did.
    public var truncated: Bool
    /// With nameFilter: the children of long containers whose names were checked and did not match.
    public var passedOver: Int?

    public init(root: ElementNode, nodeCount: Int, truncated: Bool, passedOver: Int? = nil) {
        self.root = root
        self.nodeCount = nodeCount
        self.truncated = truncated
        self.passedOver = passedOver
    }
}

public struct ElementParams: Codable, Sendable, ValidatedParams {
    public var id: String
    public var maxValueLength: Int

    public func validate() throws {
        try requireHandle(id, "id")
        try require(maxValueLength, in: 0...1_000_000, "maxValueLength")
    }
}

public struct ElementResult: Codable, Sendable {
    public var element: ElementDetail
    public init(element: ElementDetail) { self.element = element }
}

/// The params of the ax methods that take only a handle: ax.ancestors, ax.focus, ax.scrollIntoView.
public struct HandleParams: Codable, Sendable, ValidatedParams {
    public var id: String

    public func validate() throws {
        try requireHandle(id, "id")
    }
}

public struct AncestorsResult: Codable, Sendable {
    public var ancestors: [ElementInfo]
    public init(ancestors: [ElementInfo]) { self.ancestors = ancestors }
}

public struct FocusedParams: Codable, Sendable {
    public var pid: Int32?
}

/// The answer of ax.focused and ax.elementAt: an element, or null.
public struct OptionalElementResult: Codable, Sendable {
    public var element: ElementInfo?

    public init(element: ElementInfo?) { self.element = element }

    private enum CodingKeys: String, CodingKey {
        case element
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if let element {
            try container.encode(element, forKey: .element)
        } else {
            try container.encodeNil(forKey: .element)
        }
    }
}

public struct ElementAtParams: Codable, Sendable {
    public var x: Double
    public var y: Double
}

public struct PerformParams: Codable, Sendable, ValidatedParams {
    public var id: String
    public var action: String
    /// Through the accessibility layer only: AXPerformAction always is, so HelperMac reads nothing from it.
    public var background: Bool?

    public func validate() throws {
        try requireHandle(id, "id")
        try require(!action.isEmpty && action.count <= 128, "action must be 1 to 128 characters")
    }
}

public struct PerformResult: Codable, Sendable {
    public var performed: String
    /// The press was a real click at the element's centre, its window raised: the pointer moved.
    public var withPointer: Bool?

    public init(performed: String, withPointer: Bool? = nil) {
        self.performed = performed
        self.withPointer = withPointer
    }
}

public struct SetValueParams: Codable, Sendable, ValidatedParams {
    public var id: String
    public var value: ElementValue

    public func validate() throws {
        try requireHandle(id, "id")
    }
}

public struct SetValueResult: Codable, Sendable {
    public var value: ElementValue?
    public init(value: ElementValue?) { self.value = value }
}

public struct FocusResult: Codable, Sendable {
    public var focused: Bool
    public init(focused: Bool) { self.focused = focused }
}

public struct ScrollIntoViewResult: Codable, Sendable {
    public var bounds: Bounds?
    public init(bounds: Bounds?) { self.bounds = bounds }
}

// MARK: - input

public struct ClickParams: Codable, Sendable, ValidatedParams {
    public var at: Point
    public var button: MouseButton
    public var count: Int
    public var modifiers: [Modifier]

    public func validate() throws {
        try require(count, in: 1...3, "count")
    }
}

public struct MoveParams: Codable, Sendable, ValidatedParams {
    public var to: Point
    public var durationMs: Int

    public func validate() throws {
        try require(durationMs, in: 0...10000, "durationMs")
    }
}

public struct DragParams: Codable, Sendable, ValidatedParams {
    public var from: Point
    public var to: Point
    public var button: MouseButton
    public var modifiers: [Modifier]
    public var durationMs: Int

    public func validate() throws {
        try require(durationMs, in: 0...10000, "durationMs")
    }
}

public enum ScrollUnit: String, Codable, Sendable {
    case step, pixel
}

public struct ScrollParams: Codable, Sendable, ValidatedParams {
    public var at: Point
    /// Wheel steps (or pixels with unit pixel); positive scrolls right.
    public var dx: Int
    /// Wheel steps (or pixels with unit pixel); positive scrolls down.
    public var dy: Int
    /// Absent: wheel steps.
    public var unit: ScrollUnit?

    public func validate() throws {
        let most = unit == .pixel ? 100_000 : 1000
        try require(dx, in: -most...most, "dx")
        try require(dy, in: -most...most, "dy")
    }
}

public struct PointerResult: Codable, Sendable {
    public var at: Point
    public init(at: Point) { self.at = at }
}

public struct TypeParams: Codable, Sendable, ValidatedParams {
    public var text: String
    public var delayMs: Int

    public func validate() throws {
        try require(text.utf16.count <= 100_000, "text must be at most 100000 characters")
        try require(delayMs, in: 0...1000, "delayMs")
    }
}

public struct TypeResult: Codable, Sendable {
    public var typed: Int
    public init(typed: Int) { self.typed = typed }
}

public struct KeyParams: Codable, Sendable, ValidatedParams {
    /// A macOS virtual key code (src/keys.ts): the key's place on a US keyboard.
    public var code: Int
    /// For a key named by what it types ("z"): that character, which the current layout may put elsewhere.
    public var character: String?
    /// Post to this process only, the keyboard focus left where it is.
    public var pid: Int?
    public var modifiers: [Modifier]
    public var repeatCount: Int

    private enum CodingKeys: String, CodingKey {
        case code, character, pid, modifiers
        case repeatCount = "repeat"
    }

    public func validate() throws {
        try require(code >= 0 && code <= Int(UInt16.max), "code must be a virtual key code, got \(code)")
        if let character {
            try require(character.count == 1, "character must be one character, got \(character.count)")
        }
        if let pid { try require(pid > 0, "pid must be a process id, got \(pid)") }
        try require(repeatCount, in: 1...100, "repeat")
    }
}

public struct ButtonParams: Codable, Sendable {
    public var button: MouseButton
    public var down: Bool
    /// Where to press or release; absent: where the pointer is.
    public var at: Point?
}

public struct HoldParams: Codable, Sendable, ValidatedParams {
    /// A macOS virtual key code (src/keys.ts), or
    public var code: Int?
    /// a modifier key: one of the two.
    public var modifier: Modifier?
    public var down: Bool

    public func validate() throws {
        try require((code == nil) != (modifier == nil), "input.hold takes a code or a modifier, one of the two")
        if let code {
            try require(code >= 0 && code <= Int(UInt16.max), "code must be a virtual key code, got \(code)")
        }
    }
}

public struct PersonFirstParams: Codable, Sendable, ValidatedParams {
    public var on: Bool
    /// Input from the person this long before an input method starts also stops it.
    public var quietMs: Int

    public func validate() throws {
        try require(quietMs >= 0 && quietMs <= 60_000, "quietMs must be 0 to 60000, got \(quietMs)")
    }
}

public struct PersonFirstResult: Codable, Sendable {
    public var watching: Bool
    public var why: String?
    public init(watching: Bool, why: String? = nil) {
        self.watching = watching
        self.why = why
    }
}

// MARK: - screen

public struct DisplaysResult: Codable, Sendable {
    public var displays: [DisplayInfo]
    public init(displays: [DisplayInfo]) { self.displays = displays }
}

public struct CaptureParams: Codable, Sendable, ValidatedParams {
    public var target: CaptureTarget
    public var format: ImageFormat
    /// JPEG quality, 1-100.
    public var quality: Int
    public var maxLongEdge: Int

    public func validate() throws {
        try require(quality, in: 1...100, "quality")
        try require(maxLongEdge, in: 16...16384, "maxLongEdge")
    }
}

public struct CaptureResult: Codable, Sendable {
    /// Base64 of the encoded image.
    public var data: String
    public var format: ImageFormat
    public var width: Int
    public var height: Int
    /// What was captured, in screen points.
    public var bounds: Bounds
    /// Image pixels per screen point.
    public var scale: Double

    public init(data: String, format: ImageFormat, width: Int, height: Int, bounds: Bounds, scale: Double) {
        self.data = data
        self.format = format
        self.width = width
        self.height = height
        self.bounds = bounds
        self.scale = scale
    }
}

public struct RecognizeTextParams: Codable, Sendable, ValidatedParams {
    /// Base64 of a PNG image.
    public var data: String
    /// BCP 47 language codes, most likely first; nil: English.
    public var languages: [String]?

    public func validate() throws {
        try require(!data.isEmpty && data.utf8.count <= 64_000_000, "data must be 1 to 64000000 characters of base64")
        if let languages {
            try require((1...8).contains(languages.count), "languages must list 1 to 8 codes")
            try require(languages.allSatisfy { (2...16).contains($0.count) }, "each language must be 2 to 16 characters")
        }
    }
}

/// A word read from an image: its box in image pixels (origin at the top left) and a confidence from 0 to 1.
public struct RecognizedWord: Codable, Sendable {
    public var text: String
    public var bounds: Bounds
    public var confidence: Double

    public init(text: String, bounds: Bounds, confidence: Double) {
        self.text = text
        self.bounds = bounds
        self.confidence = confidence
    }
}

/// A line of text read from an image: its words, left to right, and the box around them.
public struct RecognizedLine: Codable, Sendable {
    public var text: String
    public var bounds: Bounds
    public var confidence: Double
    public var words: [RecognizedWord]

    public init(text: String, bounds: Bounds, confidence: Double, words: [RecognizedWord]) {
        self.text = text
        self.bounds = bounds
        self.confidence = confidence
        self.words = words
    }
}

public struct RecognizeTextResult: Codable, Sendable {
    public var lines: [RecognizedLine]
    public init(lines: [RecognizedLine]) { self.lines = lines }
}

// MARK: - clipboard

public struct ClipboardReadResult: Codable, Sendable {
    public var text: String?
    public var types: [String]
    public init(text: String?, types: [String]) {
        self.text = text
        self.types = types
    }
}

public enum Selection: String, Codable, Sendable {
    case clipboard, primary
}

public struct ClipboardOwnerParams: Codable, Sendable {
    public var selection: Selection
}

/// clipboard.owner: the pasteboard names no owner (not known); there is no primary selection (known, no pid).
public struct ClipboardOwnerResult: Codable, Sendable {
    public var known: Bool
    public var pid: Int32?
    public init(known: Bool, pid: Int32? = nil) {
        self.known = known
        self.pid = pid
    }
}

public struct ClipboardWriteParams: Codable, Sendable, ValidatedParams {
    public var text: String

    public func validate() throws {
        try require(text.utf16.count <= 10_000_000, "text must be at most 10000000 characters")
    }
}

// MARK: - windows

public struct WindowsListParams: Codable, Sendable {
    public var pid: Int32?
    public var includeMinimized: Bool
}

public struct WindowsListResult: Codable, Sendable {
    public var windows: [WindowInfo]
    public init(windows: [WindowInfo]) { self.windows = windows }
}

func requireWindowID(_ id: String) throws {
    try require(!id.isEmpty && id.count <= 64, "id must be a window id of 1 to 64 characters")
}

/// The params of windows.focus, windows.minimize, windows.restore and windows.close.
public struct WindowIDParams: Codable, Sendable, ValidatedParams {
    public var id: String

    public func validate() throws {
        try requireWindowID(id)
    }
}

public struct WindowMoveParams: Codable, Sendable, ValidatedParams {
    public var id: String
    public var to: Point

    public func validate() throws {
        try requireWindowID(id)
    }
}

public struct WindowResizeParams: Codable, Sendable, ValidatedParams {
    public var id: String
    public var width: Int
    public var height: Int

    public func validate() throws {
        try requireWindowID(id)
        try require(width, in: 1...100000, "width")
        try require(height, in: 1...100000, "height")
    }
}

/// The answer of windows.focus, move, resize, minimize and restore: the window afterwards.
public struct WindowResult: Codable, Sendable {
    public var window: WindowInfo
    public init(window: WindowInfo) { self.window = window }
}

public struct WindowCloseResult: Codable, Sendable {
    public var closed: Bool
    public init(closed: Bool) { self.closed = closed }
}

// MARK: - recording

public struct RecordStopResult: Codable, Sendable {
    /// How many `record.input` notifications were sent since record.start.
    public var events: Int
    public init(events: Int) { self.events = events }
}

// MARK: - notifications

/// `record.input`: one press a person made while record.start was on. Typed text travels only here, never to logs.
public struct RecordedInput: Codable, Equatable, Sendable {
    public enum Kind: String, Codable, Sendable {
        case buttonDown, buttonUp, keyDown
    }

    public var kind: Kind
    /// buttonDown and buttonUp: which button, and where, in screen points.
    public var button: MouseButton?
    public var at: Point?
    /// keyDown: the virtual key code (as input.key takes it); modifier keys themselves are not sent.
    public var code: Int?
    /// keyDown: the character typed with the modifiers held, when it types one.
    public var text: String?
    public var modifiers: [Modifier]
    /// Milliseconds since the Unix epoch.
    public var time: Double

    public init(
        kind: Kind, button: MouseButton? = nil, at: Point? = nil, code: Int? = nil, text: String? = nil,
        modifiers: [Modifier], time: Double
    ) {
        self.kind = kind
        self.button = button
        self.at = at
        self.code = code
        self.text = text
        self.modifiers = modifiers
        self.time = time
    }
}

/// `observe.changed`: an app's UI changed.
public struct ObserveChangedParams: Codable, Equatable, Sendable {
    public var pid: Int32
    /// Event kinds, e.g. "children-changed", "state-changed:focused", "window:activate".
    public var kinds: [String]
    /// How many events were folded into this notification.
    public var count: Int
    /// The elements the events were about, each with its events' kinds; nil when not known.
    public var elements: [ChangedElement]?

    public init(pid: Int32, kinds: [String], count: Int, elements: [ChangedElement]? = nil) {
        self.pid = pid
        self.kinds = kinds
        self.count = count
        self.elements = elements
    }
}

/// One element an `observe.changed` names: its handle and the kinds of its events.
public struct ChangedElement: Codable, Equatable, Sendable {
    public var id: String
    public var kinds: [String]

    public init(id: String, kinds: [String]) {
        self.id = id
        self.kinds = kinds
    }
}

import Foundation

/// One method of src/helper-client/protocol.ts: its name bound once to its params and result types, so a handler
/// registered with `dispatcher.on(AXSnapshot.self)` cannot pair the name with other types.
public protocol RPCMethod {
    associatedtype Params: Codable & Sendable
    associatedtype Result: Codable & Sendable
    static var name: String { get }
}

/// One notification the helper sends, bound to its params type.
public protocol RPCNotification {
    associatedtype Params: Codable & Sendable
    static var name: String { get }
}

public enum SystemHello: RPCMethod {
    public typealias Params = HelloParams
    public typealias Result = HelloResult
    public static let name = "system.hello"
}
public enum AppsList: RPCMethod {
    public typealias Params = Empty
    public typealias Result = AppsListResult
    public static let name = "apps.list"
}
public enum AppsLaunch: RPCMethod {
    public typealias Params = LaunchParams
    public typealias Result = LaunchResult
    public static let name = "apps.launch"
}
public enum AppsActivate: RPCMethod {
    public typealias Params = ActivateParams
    public typealias Result = ActivateResult
    public static let name = "apps.activate"
}
public enum AppsQuit: RPCMethod {
    public typealias Params = QuitParams
    public typealias Result = QuitResult
    public static let name = "apps.quit"
}
public enum AXSnapshot: RPCMethod {
    public typealias Params = SnapshotParams
    public typealias Result = SnapshotResult
    public static let name = "ax.snapshot"
}
public enum AXElement: RPCMethod {
    public typealias Params = ElementParams
    public typealias Result = ElementResult
    public static let name = "ax.element"
}
public enum AXAncestors: RPCMethod {
    public typealias Params = HandleParams
    public typealias Result = AncestorsResult
    public static let name = "ax.ancestors"
}
public enum AXFocused: RPCMethod {
    public typealias Params = FocusedParams
    public typealias Result = OptionalElementResult
    public static let name = "ax.focused"
}
public enum AXElementAt: RPCMethod {
    public typealias Params = ElementAtParams
    public typealias Result = OptionalElementResult
    public static let name = "ax.elementAt"
}
public enum AXPerform: RPCMethod {
    public typealias Params = PerformParams
    public typealias Result = PerformResult
    public static let name = "ax.perform"
}
public enum AXSetValue: RPCMethod {
    public typealias Params = SetValueParams
    public typealias Result = SetValueResult
    public static let name = "ax.setValue"
}
public enum AXFocus: RPCMethod {
    public typealias Params = HandleParams
    public typealias Result = FocusResult
    public static let name = "ax.focus"
}
public enum AXScrollIntoView: RPCMethod {
    public typealias Params = HandleParams
    public typealias Result = ScrollIntoViewResult
    public static let name = "ax.scrollIntoView"
}
public enum InputClick: RPCMethod {
    public typealias Params = ClickParams
    public typealias Result = Empty
    public static let name = "input.click"
}
public enum InputMove: RPCMethod {
    public typealias Params = MoveParams
    public typealias Result = Empty
    public static let name = "input.move"
}
public enum InputDrag: RPCMethod {
    public typealias Params = DragParams
    public typealias Result = Empty
    public static let name = "input.drag"
}
public enum InputScroll: RPCMethod {
    public typealias Params = ScrollParams
    public typealias Result = Empty
    public static let name = "input.scroll"
}
public enum InputPointer: RPCMethod {
    public typealias Params = Empty
    public typealias Result = PointerResult
    public static let name = "input.pointer"
}
public enum InputType: RPCMethod {
    public typealias Params = TypeParams
    public typealias Result = TypeResult
    public static let name = "input.type"
}
public enum InputKey: RPCMethod {
    public typealias Params = KeyParams
    public typealias Result = Empty
    public static let name = "input.key"
}
public enum InputButton: RPCMethod {
    public typealias Params = ButtonParams
    public typealias Result = Empty
    public static let name = "input.button"
}
public enum InputHold: RPCMethod {
    public typealias Params = HoldParams
    public typealias Result = Empty
    public static let name = "input.hold"
}
public enum InputPersonFirst: RPCMethod {
    public typealias Params = PersonFirstParams
    public typealias Result = PersonFirstResult
    public static let name = "input.personFirst"
}
public enum ScreenDisplays: RPCMethod {
    public typealias Params = Empty
    public typealias Result = DisplaysResult
    public static let name = "screen.displays"
}
public enum ScreenCapture: RPCMethod {
    public typealias Params = CaptureParams
    public typealias Result = CaptureResult
    public static let name = "screen.capture"
}
public enum ScreenRecognizeText: RPCMethod {
    public typealias Params = RecognizeTextParams
    public typealias Result = RecognizeTextResult
    public static let name = "screen.recognizeText"
}
public enum ClipboardRead: RPCMethod {
    public typealias Params = Empty
    public typealias Result = ClipboardReadResult
    public static let name = "clipboard.read"
}
public enum ClipboardWrite: RPCMethod {
    public typealias Params = ClipboardWriteParams
    public typealias Result = Empty
    public static let name = "clipboard.write"
}
public enum ClipboardClear: RPCMethod {
    public typealias Params = Empty
    public typealias Result = Empty
    public static let name = "clipboard.clear"
}
public enum ClipboardWatch: RPCMethod {
    public typealias Params = Empty
    public typealias Result = Empty
    public static let name = "clipboard.watch"
}
public enum ClipboardOwner: RPCMethod {
    public typealias Params = ClipboardOwnerParams
    public typealias Result = ClipboardOwnerResult
    public static let name = "clipboard.owner"
}

public enum WindowsList: RPCMethod {
    public typealias Params = WindowsListParams
    public typealias Result = WindowsListResult
    public static let name = "windows.list"
}
public enum WindowsFocus: RPCMethod {
    public typealias Params = WindowIDParams
    public typealias Result = WindowResult
    public static let name = "windows.focus"
}
public enum WindowsMove: RPCMethod {
    public typealias Params = WindowMoveParams
    public typealias Result = WindowResult
    public static let name = "windows.move"
}
public enum WindowsResize: RPCMethod {
    public typealias Params = WindowResizeParams
    public typealias Result = WindowResult
    public static let name = "windows.resize"
}
public enum WindowsMinimize: RPCMethod {
    public typealias Params = WindowIDParams
    public typealias Result = WindowResult
    public static let name = "windows.minimize"
}
public enum WindowsRestore: RPCMethod {
    public typealias Params = WindowIDParams
    public typealias Result = WindowResult
    public static let name = "windows.restore"
}
public enum WindowsClose: RPCMethod {
    public typealias Params = WindowIDParams
    public typealias Result = WindowCloseResult
    public static let name = "windows.close"
}
public enum ObserveStart: RPCMethod {
    public typealias Params = Empty
    public typealias Result = Empty
    public static let name = "observe.start"
}

public enum RecordStart: RPCMethod {
    public typealias Params = Empty
    public typealias Result = Empty
    public static let name = "record.start"
}
public enum RecordStop: RPCMethod {
    public typealias Params = Empty
    public typealias Result = RecordStopResult
    public static let name = "record.stop"
}

public enum ObserveChanged: RPCNotification {
    public typealias Params = ObserveChangedParams
    public static let name = "observe.changed"
}

public enum ClipboardChanged: RPCNotification {
    public typealias Params = Empty
    public static let name = "clipboard.changed"
}

public enum RecordInput: RPCNotification {
    public typealias Params = RecordedInput
    public static let name = "record.input"
}

/// Every method of the protocol, in protocol.ts's order.
public let allMethods: [any RPCMethod.Type] = [
    SystemHello.self,
    AppsList.self,
    AppsLaunch.self,
    AppsActivate.self,
    AppsQuit.self,
    AXSnapshot.self,
    AXElement.self,
    AXAncestors.self,
    AXFocused.self,
    AXElementAt.self,
    AXPerform.self,
    AXSetValue.self,
    AXFocus.self,
    AXScrollIntoView.self,
    InputClick.self,
    InputMove.self,
    InputDrag.self,
    InputScroll.self,
    InputPointer.self,
    InputType.self,
    InputKey.self,
    InputButton.self,
    InputHold.self,
    InputPersonFirst.self,
    ScreenDisplays.self,
    ScreenCapture.self,
    ScreenRecognizeText.self,
    ClipboardRead.self,
    ClipboardWrite.self,
    ClipboardClear.self,
    ClipboardWatch.self,
    ClipboardOwner.self,
    WindowsList.self,
    WindowsFocus.self,
    WindowsMove.self,
    WindowsResize.self,
    WindowsMinimize.self,
    WindowsRestore.self,
    WindowsClose.self,
    ObserveStart.self,
    RecordStart.self,
    RecordStop.self,
]

/// Every notification of the protocol.
public let allNotifications: [any RPCNotification.Type] = [
    ObserveChanged.self, ClipboardChanged.self, RecordInput.self,
]

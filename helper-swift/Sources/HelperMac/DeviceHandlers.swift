#if canImport(ApplicationServices)
import HelperCore

/// The methods that drive the devices and the desktop rather than one app's tree: input, screen, clipboard and
/// windows.
func registerDeviceHandlers(_ dispatcher: Dispatcher) {
    dispatcher.on("input.click") { (p: ClickParams) in try await Input.click(p) }
    dispatcher.on("input.move") { (p: MoveParams) in try await Input.move(p) }
    dispatcher.on("input.drag") { (p: DragParams) in try await Input.drag(p) }
    dispatcher.on("input.scroll") { (p: ScrollParams) in try await Input.scroll(p) }
    dispatcher.on("input.pointer") { (_: Empty) in try Input.pointer() }
    dispatcher.on("input.type") { (p: TypeParams) in try await Input.type(p) }
    dispatcher.on("input.key") { (p: KeyParams) in try await Input.key(p) }

    dispatcher.on("screen.displays") { (_: Empty) in try await Screen.displays() }
    dispatcher.on("screen.capture") { (p: CaptureParams) in try await Screen.capture(p) }

    dispatcher.on("clipboard.read") { (_: Empty) in try await Clipboard.read() }
    dispatcher.on("clipboard.write") { (p: ClipboardWriteParams) in try await Clipboard.write(p) }
    dispatcher.on("clipboard.clear") { (_: Empty) in try await Clipboard.clear() }

    dispatcher.on("windows.list") { (p: WindowsListParams) in await Windows.list(p) }
    dispatcher.on("windows.focus") { (p: WindowIDParams) in try await Windows.focus(p) }
    dispatcher.on("windows.move") { (p: WindowMoveParams) in try await Windows.move(p) }
    dispatcher.on("windows.resize") { (p: WindowResizeParams) in try await Windows.resize(p) }
    dispatcher.on("windows.minimize") { (p: WindowIDParams) in try await Windows.minimize(p) }
    dispatcher.on("windows.restore") { (p: WindowIDParams) in try await Windows.restore(p) }
    dispatcher.on("windows.close") { (p: WindowIDParams) in try await Windows.close(p) }
}
#endif

#if canImport(ApplicationServices)
import HelperCore

/// The methods that drive the devices and the desktop rather than one app's tree: input, screen, clipboard,
/// recording and windows.
func registerDeviceHandlers(_ dispatcher: Dispatcher) {
    dispatcher.on(InputClick.self) { p in try await Input.click(p) }
    dispatcher.on(InputMove.self) { p in try await Input.move(p) }
    dispatcher.on(InputDrag.self) { p in try await Input.drag(p) }
    dispatcher.on(InputScroll.self) { p in try await Input.scroll(p) }
    dispatcher.on(InputPointer.self) { _ in try Input.pointer() }
    dispatcher.on(InputType.self) { p in try await Input.type(p) }
    dispatcher.on(InputKey.self) { p in try await Input.key(p) }
    dispatcher.on(InputButton.self) { p in try await Input.button(p) }
    dispatcher.on(InputHold.self) { p in try await Input.hold(p) }
    dispatcher.on(InputPersonFirst.self) { p in await PersonWatch.set(p) }

    dispatcher.on(ScreenDisplays.self) { _ in try await Screen.displays() }
    dispatcher.on(ScreenCapture.self) { p in try await Screen.capture(p) }
    dispatcher.on(ScreenRecognizeText.self) { p in try await TextRecognition.recognize(p) }

    dispatcher.on(ClipboardRead.self) { _ in try await Clipboard.read() }
    dispatcher.on(ClipboardWrite.self) { p in try await Clipboard.write(p) }
    dispatcher.on(ClipboardClear.self) { _ in try await Clipboard.clear() }
    dispatcher.on(ClipboardWatch.self) { _ in await Clipboard.watch(dispatcher) }
    dispatcher.on(ClipboardOwner.self) { p in ClipboardOwnerResult(known: p.selection == .primary) }

    dispatcher.on(RecordStart.self) { _ in try await Recording.start(dispatcher) }
    dispatcher.on(RecordStop.self) { _ in await Recording.stop() }

    dispatcher.on(WindowsList.self) { p in await Windows.list(p) }
    dispatcher.on(WindowsFocus.self) { p in try await Windows.focus(p) }
    dispatcher.on(WindowsMove.self) { p in try await Windows.move(p) }
    dispatcher.on(WindowsResize.self) { p in try await Windows.resize(p) }
    dispatcher.on(WindowsMinimize.self) { p in try await Windows.minimize(p) }
    dispatcher.on(WindowsRestore.self) { p in try await Windows.restore(p) }
    dispatcher.on(WindowsClose.self) { p in try await Windows.close(p) }
}
#endif

#if canImport(ApplicationServices)
import HelperCore

/// Registers every method of src/helper/protocol.ts on the dispatcher, one `dispatcher.on("literal")` each
/// (a Linux-side test compares those literals with protocol.ts). main.swift calls it before reading stdin.
public func registerMacHandlers(_ dispatcher: Dispatcher) {
    registerDeviceHandlers(dispatcher)
    registerAccessibilityHandlers(dispatcher)
}
#endif

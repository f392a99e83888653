#if canImport(ApplicationServices)
import HelperCore

/// Registers every method of src/helper-client/protocol.ts on the dispatcher, one `dispatcher.on(Method.self)` each
/// (a Linux-side test checks that each of HelperCore's `allMethods` is registered once). main.swift calls it
/// before reading stdin.
public func registerMacHandlers(_ dispatcher: Dispatcher) {
    registerDeviceHandlers(dispatcher)
    registerAccessibilityHandlers(dispatcher)
}
#endif

#if canImport(ApplicationServices)
import HelperCore

/// system.hello, apps.*, ax.* and observe.start, and the app lifecycle their handles and observers follow.
func registerAccessibilityHandlers(_ dispatcher: Dispatcher) {
    AppLifecycle.watch()
    dispatcher.on("system.hello") { (_: HelloParams) in Hello.hello() }
    dispatcher.on("apps.list") { (_: Empty) in Apps.list() }
    dispatcher.on("apps.launch") { (params: LaunchParams) in try await Apps.launch(params) }
    dispatcher.on("apps.activate") { (params: ActivateParams) in try await Apps.activate(params) }
    dispatcher.on("apps.quit") { (params: QuitParams) in try await Apps.quit(params) }
    dispatcher.on("ax.snapshot") { (params: SnapshotParams) in try await AXTree.snapshot(params) }
    dispatcher.on("ax.element") { (params: ElementParams) in try await AXActions.element(params) }
    dispatcher.on("ax.ancestors") { (params: HandleParams) in try await AXTree.ancestors(params) }
    dispatcher.on("ax.focused") { (params: FocusedParams) in try await AXLocate.focused(params) }
    dispatcher.on("ax.elementAt") { (params: ElementAtParams) in try await AXLocate.elementAt(params) }
    dispatcher.on("ax.perform") { (params: PerformParams) in try await AXActions.perform(params) }
    dispatcher.on("ax.setValue") { (params: SetValueParams) in try await AXActions.setValue(params) }
    dispatcher.on("ax.focus") { (params: HandleParams) in try await AXActions.focus(params) }
    dispatcher.on("ax.scrollIntoView") { (params: HandleParams) in try await AXActions.scrollIntoView(params) }
    dispatcher.on("observe.start") { (_: Empty) -> Empty in
        ChangeObserver.shared.start(dispatcher)
        return Empty()
    }
}
#endif

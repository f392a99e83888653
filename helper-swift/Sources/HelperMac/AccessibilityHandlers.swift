#if canImport(ApplicationServices)
import HelperCore

/// system.hello, apps.*, ax.* and observe.start, and the app lifecycle their handles and observers follow.
func registerAccessibilityHandlers(_ dispatcher: Dispatcher) {
    AppLifecycle.watch()
    dispatcher.on(SystemHello.self) { _ in Hello.hello() }
    dispatcher.on(AppsList.self) { _ in Apps.list() }
    dispatcher.on(AppsLaunch.self) { params in try await Apps.launch(params) }
    dispatcher.on(AppsActivate.self) { params in try await Apps.activate(params) }
    dispatcher.on(AppsQuit.self) { params in try await Apps.quit(params) }
    dispatcher.on(AXSnapshot.self) { params in try await AXTree.snapshot(params) }
    dispatcher.on(AXElement.self) { params in try await AXActions.element(params) }
    dispatcher.on(AXAncestors.self) { params in try await AXTree.ancestors(params) }
    dispatcher.on(AXFocused.self) { params in try await AXLocate.focused(params) }
    dispatcher.on(AXElementAt.self) { params in try await AXLocate.elementAt(params) }
    dispatcher.on(AXPerform.self) { params in try await AXActions.perform(params) }
    dispatcher.on(AXSetValue.self) { params in try await AXActions.setValue(params) }
    dispatcher.on(AXFocus.self) { params in try await AXActions.focus(params) }
    dispatcher.on(AXScrollIntoView.self) { params in try await AXActions.scrollIntoView(params) }
    dispatcher.on(ObserveStart.self) { _ in
        ChangeObserver.shared.start(dispatcher)
        return Empty()
    }
}
#endif

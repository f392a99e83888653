import Foundation
import HelperCore
import HelperMac
#if canImport(CoreGraphics)
import CoreGraphics
#endif

#if canImport(Darwin)
reexecDisclaimingResponsibility()
// A closed stdout must fail the write (the writer logs it), not kill the helper before it sees stdin close.
signal(SIGPIPE, SIG_IGN)
#endif

#if canImport(CoreGraphics)
// Connects this plain command-line process to the window server before ScreenCaptureKit builds window filters.
_ = CGMainDisplayID()
#endif

let dispatcher = Dispatcher()
#if canImport(ApplicationServices)
registerMacHandlers(dispatcher)
#endif

let reader = Thread {
    dispatcher.run()
    #if canImport(ApplicationServices)
    releaseHeldInput()
    #endif
    exit(0)
}
reader.name = "stdin"
reader.start()

// AXObserver callbacks, NSWorkspace updates and main-actor work happen only while the main run loop runs. A run
// loop with no source returns at once, so a timer that never matters keeps it running.
RunLoop.main.add(Timer(timeInterval: 86_400, repeats: true) { _ in }, forMode: .default)
RunLoop.main.run()

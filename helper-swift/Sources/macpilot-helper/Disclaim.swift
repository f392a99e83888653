#if canImport(Darwin)
import Darwin
import Foundation
import HelperCore

/// Set in the re-executed helper's environment, so that it does not re-execute again.
private let disclaimedMarker = "MACPILOT_HELPER_DISCLAIMED"

/// `int responsibility_spawnattrs_setdisclaim(posix_spawnattr_t *attrs, int disclaim)`, private to libSystem.
private typealias SetDisclaim = @convention(c) (UnsafeMutablePointer<posix_spawnattr_t?>, Int32) -> Int32

/// Makes the helper its own "responsible process" for macOS privacy permissions. Started by an MCP client (Claude
/// Desktop, a terminal), the helper would otherwise ask for, and use, that app's Accessibility and Screen Recording
/// grants. So, once at start-up, it re-executes itself in place (POSIX_SPAWN_SETEXEC: same pid, same stdin/stdout
/// pipes, so the server notices nothing) with the private responsibility-disclaim attribute that LLDB, Chromium and
/// Qt Creator use; macOS then asks for and records "macpilot Helper".
///
/// Fallback: when the private symbol is missing (a future macOS may drop it) or the spawn fails, the helper logs
/// why on stderr and carries on as it is. Everything works, but permissions are asked of and recorded for the app
/// that started the helper (grant them to that app instead). MACPILOT_NO_DISCLAIM=1 chooses that on purpose.
func reexecDisclaimingResponsibility() {
    let environment = ProcessInfo.processInfo.environment
    guard environment[disclaimedMarker] == nil, environment["MACPILOT_NO_DISCLAIM"] != "1" else { return }
    let fallback = "permissions stay with the app that started the helper"
    // dlfcn.h's RTLD_DEFAULT, a macro Swift does not import: search every loaded image.
    let everyImage = UnsafeMutableRawPointer(bitPattern: -2)
    guard let symbol = dlsym(everyImage, "responsibility_spawnattrs_setdisclaim") else {
        log("responsibility_spawnattrs_setdisclaim is not in this macOS; \(fallback)")
        return
    }
    guard let path = Bundle.main.executablePath else {
        log("cannot find the helper's own executable; \(fallback)")
        return
    }
    let setDisclaim = unsafeBitCast(symbol, to: SetDisclaim.self)
    var attributes: posix_spawnattr_t?
    var status = posix_spawnattr_init(&attributes)
    guard status == 0 else {
        log("posix_spawnattr_init failed (\(String(cString: strerror(status)))); \(fallback)")
        return
    }
    defer { posix_spawnattr_destroy(&attributes) }
    status = posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETEXEC))
    if status == 0 { status = setDisclaim(&attributes, 1) }
    if status == 0 {
        setenv(disclaimedMarker, "1", 1)
        // Returns only on failure: on success the new image replaces this one.
        status = posix_spawn(nil, path, nil, &attributes, CommandLine.unsafeArgv, environ)
    }
    log("cannot re-execute with responsibility disclaimed (\(String(cString: strerror(status)))); \(fallback)")
}
#endif

// swift-tools-version:5.9
import PackageDescription

let package = Package(
    name: "macpilot-helper",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "macpilot-helper", targets: ["macpilot-helper"]),
    ],
    targets: [
        // Portable (Foundation only): framing, dispatch, handles, errors, the protocol's types.
        .target(
            name: "HelperCore",
            path: "helper-swift/Sources/HelperCore",
            swiftSettings: [.unsafeFlags(["-warnings-as-errors"])]
        ),
        // macOS only: every file is wrapped in `#if canImport(ApplicationServices)`.
        .target(
            name: "HelperMac",
            dependencies: ["HelperCore"],
            path: "helper-swift/Sources/HelperMac"
        ),
        .executableTarget(
            name: "macpilot-helper",
            dependencies: ["HelperCore", "HelperMac"],
            path: "helper-swift/Sources/macpilot-helper"
        ),
        .testTarget(
            name: "HelperCoreTests",
            dependencies: ["HelperCore"],
            path: "helper-swift/Tests/HelperCoreTests"
        ),
    ]
)

#if os(Linux)
// Test-only (test/swift/dispatcher.test.ts): HelperCore's dispatcher with fixed answers, driven by the TypeScript
// helper client.
package.targets.append(
    .executableTarget(
        name: "dispatcher-probe",
        dependencies: ["HelperCore"],
        path: "helper-swift/Tests/DispatcherProbe"
    )
)
#endif

// swift-tools-version:6.0
// partgate: a streaming multipart/form-data policy gateway (libevent + OpenSSL).
import PackageDescription

/// Settings shared by every Swift target.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

/// The engine's release build runs without the dynamic exclusivity checks (about 60 per small request, 4 % of its
/// instructions: most are reads and writes of the connection's stored properties). Debug builds (the test suite)
/// and the sanitizer build keep them; the static checks stay everywhere.
let engineSettings: [SwiftSetting] = swiftSettings + [
    .unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release)),
]

/// libFuzzer targets (Fuzz/README.md). Each is an executable with an `LLVMFuzzerTestOneInput` entry and a
/// `@main` corpus replayer compiled out under `-DFUZZING`; they depend on Multipart, HTTP1 and FuzzSupport, and
/// FuzzFileStructure and FuzzPolicy on Policy and Sniff too (all pure modules).
let fuzzTargets = [
    "FuzzContentType", "FuzzContentDisposition", "FuzzMultipart", "FuzzRoundTrip", "FuzzRequestHead", "FuzzChunked",
    "FuzzResponseHead", "FuzzFileStructure", "FuzzPolicy",
]

/// Libraries a fuzz target needs beyond Multipart, HTTP1 and FuzzSupport.
let fuzzExtraDependencies: [String: [Target.Dependency]] = [
    "FuzzFileStructure": ["Policy", "Sniff"], "FuzzPolicy": ["Policy", "Sniff"],
]

let package = Package(
    name: "partgate",
    products: [
        .executable(name: "partgate", targets: ["partgate"]),
        .library(name: "Multipart", targets: ["Multipart"]),
        .library(name: "Sniff", targets: ["Sniff"]),
        .library(name: "HTTP1", targets: ["HTTP1"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
    ],
    targets: [
        // libevent 2.1 (core, openssl, pthreads) and OpenSSL 3 in one Clang module, with static inline shims.
        .systemLibrary(
            name: "CEventTLS",
            pkgConfig: "libevent_openssl",
            providers: [.apt(["libevent-dev", "libssl-dev"])]
        ),
        // Pure Swift: no Foundation, no C libraries (Multipart's delimiter search is a C function of its own, in
        // CDelimiterScan: SSE2/AVX2 intrinsics, which Swift's SIMD types do not reach).
        .target(name: "CDelimiterScan"),
        // The engine's bulk copies (a `memcpy` that avoids one slow case of `rep movsb`, see CByteCopy.h).
        .target(name: "CByteCopy"),
        .target(name: "HTTP1", swiftSettings: swiftSettings),
        .target(name: "Multipart", dependencies: ["CDelimiterScan"], swiftSettings: swiftSettings),
        .target(name: "Sniff", swiftSettings: swiftSettings),
        .target(name: "Policy", dependencies: ["Multipart", "Sniff"], swiftSettings: swiftSettings),
        // The only target that touches C types.
        .target(
            name: "ProxyEngine",
            dependencies: [
                "CEventTLS", "CByteCopy", "HTTP1", "Multipart", "Sniff", "Policy",
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ],
            swiftSettings: engineSettings
        ),
        .executableTarget(
            name: "partgate",
            dependencies: [
                "ProxyEngine", "Policy", "Multipart", "Sniff", "HTTP1",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ],
            swiftSettings: swiftSettings
        ),
        // Test support shared by several test targets: the llhttp corpus loader and its expectations, and
        // blocking loopback clients and servers.
        .target(
            name: "LLHTTPCorpusSupport", dependencies: ["HTTP1"], path: "Tests/Support/LLHTTPCorpus",
            swiftSettings: swiftSettings),
        .target(
            name: "LoopbackTestSupport", dependencies: ["ProxyEngine"], path: "Tests/Support/Loopback",
            swiftSettings: swiftSettings),
        .testTarget(name: "HTTP1Tests", dependencies: ["HTTP1", "LLHTTPCorpusSupport"], swiftSettings: swiftSettings),
        .testTarget(
            name: "MultipartTests",
            dependencies: ["Multipart", "CDelimiterScan", "HTTP1", .product(name: "Yams", package: "Yams")],
            exclude: ["Conformance/decisions.json"],  // read by path (ConformanceCase), not bundled
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "SniffTests", dependencies: ["Sniff"], swiftSettings: swiftSettings),
        .testTarget(name: "PolicyTests", dependencies: ["Policy", "Multipart", "Sniff"], swiftSettings: swiftSettings),
        .testTarget(
            name: "ProxyEngineTests",
            dependencies: [
                "ProxyEngine", "CByteCopy", "Policy", "Multipart", "HTTP1", "LLHTTPCorpusSupport", "LoopbackTestSupport",
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "PartgateTests", dependencies: ["partgate", "Multipart", "ProxyEngine", "LoopbackTestSupport"],
            swiftSettings: swiftSettings),
        .target(
            name: "FuzzSupport", dependencies: ["Multipart", "HTTP1"], path: "Fuzz/FuzzSupport", swiftSettings: swiftSettings),
    ] + fuzzTargets.map { name in
        .executableTarget(
            name: name, dependencies: ["Multipart", "HTTP1", "FuzzSupport"] + (fuzzExtraDependencies[name] ?? []),
            path: "Fuzz/\(name)", swiftSettings: swiftSettings)
    },
    swiftLanguageModes: [.v6]
)

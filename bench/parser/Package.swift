// swift-tools-version:6.0
// In-process parser benchmark: partgate's Multipart parser against vapor/multipart-kit 4.7.1.
// A separate package so that the main build and CI never compile SwiftNIO. Run it with `make bench-parser`.
import PackageDescription

let package = Package(
    name: "parser-bench",
    dependencies: [
        .package(name: "partgate", path: "../.."),
        .package(url: "https://github.com/vapor/multipart-kit.git", exact: "4.7.1"),
    ],
    targets: [
        .executableTarget(
            name: "parser-bench",
            dependencies: [
                .product(name: "Multipart", package: "partgate"),
                .product(name: "MultipartKit", package: "multipart-kit"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)

import Foundation
import Testing

/// The example configurations in conf/ load (the contract every user copies from).
@Suite("conf/ examples")
struct ConfExamplesTests {
    @Test(arguments: ["gateway.yaml", "policy-images.yaml", "inspection.yaml"])
    func exampleChecks(file: String) throws {
        let path = PartgateBinary.repositoryRoot().appendingPathComponent("conf/\(file)").path
        let result = try PartgateBinary.run(["check", "--config", path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("\(path): ok"))
    }
}

/// libFuzzer's entry point (build A): one input per call.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzContentType(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    ContentTypeTarget.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

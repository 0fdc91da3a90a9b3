/// libFuzzer's entry point (build A): one input per call.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequestHead(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    RequestHeadTarget.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

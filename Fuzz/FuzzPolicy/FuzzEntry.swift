/// libFuzzer's entry point (build A): one input per call.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPolicy(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    PolicyTarget.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

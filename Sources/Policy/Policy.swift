// Policy: the per-part decision stage partgate runs between the multipart parser and the encoder.
//
// Pure value types driven by parser events; no I/O, no C types, no YAML. The rule model and the decision
// stage build on ``PartInspector`` (what a part is: sniffed type, size, digest) in issue 4.

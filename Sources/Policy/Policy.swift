// Policy: the per-part decision stage partgate runs between the multipart parser and the encoder.
//
// Pure value types driven by parser events; no I/O, no C types, no YAML. Imports Multipart and Sniff only
// (never CEventTLS or Yams).
//
// - `Configuration/`: the configuration model (routes, rules, limits, globs, templates).
// - `PolicyStage`: the rules, default action, filename and charset checks applied part by part; a state
//   machine whose actions name exactly what to write. `PolicyFilter` carries them out onto any downstream
//   `MultipartHandler` (the engine's encoder/recorder). docs/policy.md has the semantics.
// - `Validation/`: streaming structure walkers for `sniff.validate` (PNG, JPEG, GIF, WebP, PDF).
// - `SafeName`: the filename sanitiser. `PartInspector`: what each part is (inspect, the echo upstream).

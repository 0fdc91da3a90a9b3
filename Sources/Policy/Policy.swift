// Policy: the per-part decision stage partgate runs between the multipart parser and the encoder.
//
// Pure value types driven by parser events; no I/O, no C types, no YAML.
import Multipart
import Sniff

// Catalog: executables, scripts, markup, text, data and the binary fallback.

extension SniffedType {
    /// Windows PE or DOS MZ executable (EXE, DLL, SYS, ...).
    public static let windowsExecutable = SniffedType("application/x-msdownload", .executable)
    /// ELF executable, shared object or relocatable object.
    public static let elf = SniffedType("application/x-executable", .executable)
    /// Mach-O, thin (32/64-bit, either byte order) or fat/universal.
    public static let machO = SniffedType("application/x-mach-binary", .executable)
    /// Java class file.
    public static let javaClass = SniffedType("application/java-vm", .executable)
    /// WebAssembly binary module.
    public static let wasm = SniffedType("application/wasm", .executable)
    /// Adobe Flash (SWF, plain or compressed).
    public static let flash = SniffedType("application/x-shockwave-flash", .executable)
    /// Java archive (zip holding `META-INF/MANIFEST.MF`).
    public static let jar = SniffedType("application/java-archive", .executable)
    /// Android package (zip holding `AndroidManifest.xml` or `classes.dex`).
    public static let apk = SniffedType("application/vnd.android.package-archive", .executable)
    /// Windows Installer package (CFB with the MSI root CLSID).
    public static let msi = SniffedType("application/x-msi", .executable)

    /// `#!` script of a shell or an unrecognised interpreter.
    public static let shellScript = SniffedType("text/x-shellscript", .script)
    /// `#!` Python script.
    public static let python = SniffedType("text/x-python", .script)
    /// `#!` Perl script.
    public static let perl = SniffedType("text/x-perl", .script)
    /// `#!` Ruby script.
    public static let ruby = SniffedType("text/x-ruby", .script)
    /// `#!` Node.js / Deno / Bun script.
    public static let javaScript = SniffedType("text/javascript", .script)
    /// PHP source opening with `<?php` or `<?=`.
    public static let php = SniffedType("text/x-php", .script)

    /// HTML; scriptable.
    public static let html = SniffedType("text/html", .markup)
    /// XML of no more specific root; scriptable.
    public static let xml = SniffedType("text/xml", .markup)
    /// XHTML (XML declaration followed by an `html` root element); scriptable.
    public static let xhtml = SniffedType("application/xhtml+xml", .markup)

    /// Text without binary data bytes; also the result for an empty resource.
    public static let plainText = SniffedType("text/plain", .text)
    /// SQLite 3 database.
    public static let sqlite = SniffedType("application/vnd.sqlite3", .data)
    /// Binary data of no recognised format.
    public static let octetStream = SniffedType("application/octet-stream", .binary)

    /// Every executable type.
    public static let executables: [SniffedType] = [
        .windowsExecutable, .elf, .machO, .javaClass, .wasm, .flash, .jar, .apk, .msi,
    ]
    /// Every script and markup type.
    public static let scriptsAndMarkup: [SniffedType] = [
        .shellScript, .python, .perl, .ruby, .javaScript, .php, .html, .xml, .xhtml,
    ]
}

/// A small file-extension → MIME type table for `MultipartFormData.append(_:withName:)` with a file URL.
///
/// Deliberately small: the common upload types. Anything else is `application/octet-stream`; callers that
/// know better pass the type explicitly.
public enum FormDataMIMEType {
    /// The type for an extension nobody listed.
    public static let fallback = "application/octet-stream"

    /// The MIME type for a file extension (without the dot, any case).
    /// - Parameter pathExtension: the extension, e.g. `"PNG"`.
    /// - Returns: the type, or ``fallback``.
    public static func forPathExtension(_ pathExtension: String) -> String {
        table[pathExtension.lowercased()] ?? fallback
    }

    private static let table: [String: String] = [
        "txt": "text/plain", "text": "text/plain", "csv": "text/csv", "html": "text/html", "htm": "text/html",
        "css": "text/css", "md": "text/markdown", "xml": "application/xml", "json": "application/json",
        "js": "text/javascript", "pdf": "application/pdf", "zip": "application/zip", "gz": "application/gzip",
        "tar": "application/x-tar", "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg",
        "gif": "image/gif", "webp": "image/webp", "svg": "image/svg+xml", "bmp": "image/bmp",
        "ico": "image/vnd.microsoft.icon", "heic": "image/heic", "tif": "image/tiff", "tiff": "image/tiff",
        "mp3": "audio/mpeg", "wav": "audio/wav", "ogg": "audio/ogg", "mp4": "video/mp4", "mov": "video/quicktime",
        "webm": "video/webm", "bin": "application/octet-stream",
    ]
}

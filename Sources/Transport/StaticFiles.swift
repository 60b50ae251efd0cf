#if canImport(Glibc)
import Glibc
#endif
import CLinux
import WebSocket

/// Serves files below one directory over HTTP: correct `Content-Type`, no way out of the directory.
public struct StaticFiles: Sendable {
    /// Absolute, symlink-resolved root directory.
    public let root: String
    /// Largest file served; the web client's files are small, so anything bigger is a mistake.
    public var maxFileBytes = 16 << 20
    /// Headers added to every HTML page served (the 404 page included): the application's page policies, such
    /// as `Content-Security-Policy`.
    public var pageHeaders: [(name: String, value: String)] = []

    /// - Throws: `SystemError` when `directory` does not exist or is not a directory.
    public init(directory: String) throws(SystemError) {
        guard let resolved = realpath(directory, nil) else {
            throw SystemError("realpath(\(directory))", errno: errno)
        }
        defer { free(resolved) }
        var info = stat()
        guard stat(resolved, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw SystemError("stat(\(directory))", errno: ENOTDIR)
        }
        self.root = String(cString: resolved)
    }

    /// Answers GET/HEAD for `path` (already without query); `indexFallback` serves `index.html` for it instead,
    /// for client-side routes such as `/r/CODE`.
    public func response(for request: HTTPRequestHead, path overridePath: String? = nil) -> HTTPResponse {
        guard request.method == "GET" || request.method == "HEAD" else {
            var response = HTTPResponse.text("Only GET and HEAD are allowed here.", status: 405)
            response.headers.append(("Allow", "GET, HEAD"))
            return response
        }
        guard let relative = Self.safeRelativePath(overridePath ?? request.path) else {
            return .text("Bad path.", status: 400)
        }
        switch file(relative) {
        case .found(let path, let body):
            return response(status: 200, path: path, body: body)
        case .unreadable:
            return .text("Could not read \(request.path).", status: 500)
        case .missing:
            return notFound(request)
        }
    }

    /// The root's `404.html` with status 404 for a browser asking for a page (so a mistyped link still looks like
    /// the app and leads back to it); one plain sentence for anything else, such as a missing script.
    public func notFound(_ request: HTTPRequestHead) -> HTTPResponse {
        let wantsPage = request.value(of: "accept")?.contains("text/html") ?? false
        if wantsPage, case .found(let path, let body) = file(Self.notFoundPage) {
            return response(status: 404, path: path, body: body)
        }
        return .text("Not found: \(request.path)", status: 404)
    }

    /// The page served for unknown paths, relative to the root.
    public static let notFoundPage = "404.html"

    private enum Lookup {
        case found(path: String, body: [UInt8])
        case missing
        case unreadable
    }

    /// The regular file at `relative` (already checked by `safeRelativePath`) inside the root.
    private func file(_ relative: String) -> Lookup {
        var candidate = relative.isEmpty ? root : root + "/" + relative
        var info = stat()
        guard stat(candidate, &info) == 0 else { return .missing }
        if info.st_mode & S_IFMT == S_IFDIR {
            candidate += "/index.html"
            guard stat(candidate, &info) == 0 else { return .missing }
        }
        // Symlinks inside the root could still point outside it.
        guard let resolved = realpath(candidate, nil) else { return .missing }
        let resolvedPath = String(cString: resolved)
        free(resolved)
        guard resolvedPath.hasPrefix(root + "/"), info.st_mode & S_IFMT == S_IFREG else { return .missing }
        guard info.st_size <= maxFileBytes, let body = Self.readFile(resolvedPath, size: Int(info.st_size)) else {
            return .unreadable
        }
        return .found(path: resolvedPath, body: body)
    }

    private func response(status: Int, path resolvedPath: String, body: [UInt8]) -> HTTPResponse {
        let type = Self.contentType(for: resolvedPath)
        var response = HTTPResponse(status: status, headers: [
            ("Content-Type", type),
            ("Cache-Control", "no-cache"),
            ("X-Content-Type-Options", "nosniff"),
        ], body: body)
        if type.hasPrefix("text/html") { response.headers += pageHeaders }
        return response
    }

    /// Percent-decodes `path` and checks each segment; nil when it tries to leave the root or is malformed.
    static func safeRelativePath(_ path: String) -> String? {
        guard path.hasPrefix("/") else { return nil }
        var bytes: [UInt8] = []
        var iterator = path.utf8.makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    return nil
                }
                bytes.append(high << 4 | low)
            } else {
                bytes.append(byte)
            }
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else { return nil }
        var segments: [Substring] = []
        for segment in decoded.split(separator: "/", omittingEmptySubsequences: true) {
            if segment == "." { continue }
            if segment == ".." || segment.hasPrefix(".") || segment.contains("\\") || segment.contains("\0") {
                return nil
            }
            segments.append(segment)
        }
        return segments.joined(separator: "/")
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The file's `size` bytes, or nil when it cannot be read whole (it shrank, or went away, since `stat`).
    private static func readFile(_ path: String, size: Int) -> [UInt8]? {
        guard let bytes = try? Syscall.readFile(path, limit: size), bytes.count == size else { return nil }
        return bytes
    }

    /// Media types for the files a web client ships.
    static func contentType(for path: String) -> String {
        let name = path.split(separator: "/").last ?? ""
        let ext = name.split(separator: ".").count > 1 ? String(name.split(separator: ".").last!).lowercased() : ""
        switch ext {
        case "html", "htm": return "text/html; charset=utf-8"
        case "js", "mjs": return "text/javascript; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "json": return "application/json"
        case "svg": return "image/svg+xml"
        case "png": return "image/png"
        case "jpg", "jpeg": return "image/jpeg"
        case "gif": return "image/gif"
        case "webp": return "image/webp"
        case "ico": return "image/x-icon"
        case "txt": return "text/plain; charset=utf-8"
        case "woff2": return "font/woff2"
        case "webmanifest": return "application/manifest+json"
        default: return "application/octet-stream"
        }
    }
}

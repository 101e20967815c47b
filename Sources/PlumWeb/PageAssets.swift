/// The page's files, `Sources/PlumWeb/Assets`: HTML, CSS and JavaScript written, linted and
/// tested as what they are, and embedded in the binary at build time (SwiftPM's
/// `embedInCode`), so the service serves them from memory and nothing is loaded from elsewhere.
enum PageAssets {
    /// `/`: the page.
    static let html = String(decoding: PackageResources.index_html, as: UTF8.self)
    /// `/app.css`: cards that wrap on a phone, the force colour, the heaviest pan, the lamps.
    static let style = String(decoding: PackageResources.app_css, as: UTF8.self)
    /// `/app.js`: one script, so the session's and the first run's functions are there before
    /// the first frame: `app.js`, then `session.js` and `setup.js`, which use its `$`, `post`,
    /// `say` and `csrf`.
    static let script = [PackageResources.app_js, PackageResources.session_js, PackageResources.setup_js]
        .map { String(decoding: $0, as: UTF8.self) }.joined(separator: "\n")
}

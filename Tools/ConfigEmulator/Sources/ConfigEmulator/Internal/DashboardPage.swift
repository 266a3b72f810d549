internal import Foundation

/// The dashboard served at `/`: one page of HTML, CSS and plain JavaScript, with nothing to fetch but the
/// admin API of the emulator that serves it (so it works offline).
enum DashboardPage {
    /// The page, or `405` for a method other than `GET` and `HEAD`.
    static func response(to request: HTTPRequest) -> HTTPResponse {
        guard request.method == "GET" || request.method == "HEAD" else {
            var response = HTTPResponse.error(405, "use GET")
            response.headers.append(("Allow", "GET, HEAD"))
            return response
        }
        let body = request.method == "HEAD" ? Data() : Data(html.utf8)
        return HTTPResponse(
            status: 200,
            headers: [
                ("Content-Type", "text/html; charset=utf-8"),
                ("Cache-Control", "no-store"),
                (
                    "Content-Security-Policy",
                    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
                        + "connect-src 'self'; img-src data:; base-uri 'none'; "
                        + "frame-ancestors 'none'"
                ),
                ("X-Frame-Options", "DENY"),
                ("X-Content-Type-Options", "nosniff"),
                ("Referrer-Policy", "no-referrer"),
            ],
            body: body
        )
    }

    static let html = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="light dark">
        <title>ConfigDirector emulator</title>
        <style>
        \(style)
        </style>
        </head>
        <body>
        \(body)
        <script>
        \(script)
        </script>
        </body>
        </html>
        """
}

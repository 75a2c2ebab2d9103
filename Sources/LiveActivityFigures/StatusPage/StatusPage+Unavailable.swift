/// The page's answer when the database fails (SPEC 3: 503 with a short HTML page): what happened
/// in words, no internals; the responder's log line says the cause and what to do. Any other
/// fault below the page (a 500) gets the same page: its log line says "internal error".
extension StatusPage {
    public static let unavailable = """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">\
        <title>Live Activity wake-ups: status unavailable</title>\
        <style>body{font:16px/1.45 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem}\
        h1{font-size:1.4rem;color:#b3261e}</style></head>
        <body><h1>Status unavailable</h1><p>The database did not answer, so there are no figures to show. \
        The responder's log (its line starting with "database error", or "internal error") says why \
        and what to do; this page works again once the database does.</p></body></html>

        """
}

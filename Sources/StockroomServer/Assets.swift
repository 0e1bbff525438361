import Hummingbird

/// The stylesheet and the one script, compiled into the binary: `stockroom` stays one file.
enum Assets {
    static let style = """
        :root { color-scheme: light dark; --accent: #1d5fbf; --error: #b00020; }
        * { box-sizing: border-box; }
        body { font: 16px/1.5 system-ui, sans-serif; margin: 0; }
        header { background: var(--accent); padding: .5rem 1rem; }
        header a { color: #fff; margin-right: 1rem; font-weight: 600; }
        main { max-width: 60rem; margin: 0 auto; padding: 1rem; }
        a:focus, button:focus, input:focus, select:focus { outline: 3px solid #f5a623; outline-offset: 2px; }
        table { border-collapse: collapse; width: 100%; }
        .scroll { overflow-x: auto; }
        th, td { text-align: left; padding: .35rem .5rem; border-bottom: 1px solid #8884; vertical-align: top; }
        .field { margin: .5rem 0; }
        label { display: block; font-weight: 600; }
        input, select, button { font: inherit; padding: .35rem .5rem; max-width: 100%; }
        input[type=text], input:not([type]), input[type=search] { width: 24rem; }
        fieldset { border: 1px solid #8886; margin: 1rem 0; }
        .filters { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: end; margin-bottom: 1rem; }
        .filters .field { margin: 0; }
        .error { color: var(--error); font-weight: 600; }
        .notice { font-weight: 600; }
        .actions { display: flex; flex-wrap: wrap; gap: .5rem; margin: 1rem 0; }
        .changed { background: #f5a62333; }
        pre { white-space: pre-wrap; }
        .sync-state:empty { display: none; }
        .facts { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: .25rem 1rem; }
        .facts dt { font-weight: 600; } .facts dd { margin: 0; overflow-wrap: anywhere; }
        .sides td { overflow-wrap: anywhere; } .sides th, .sides td { width: 33%; }
        .actions form { margin: 0; }
        .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
        .swatch { display: inline-block; width: 1em; height: 1em; margin-right: .4em; vertical-align: -.15em; border: 1px solid #888; border-radius: 2px; }
        .swatch-black { background: #000; } .swatch-blue { background: #1e63d6; } .swatch-green { background: #1f9d3a; }
        .swatch-red { background: #d32f2f; } .swatch-white { background: #fff; } .swatch-yellow { background: #f7d21e; }
        tr.out-of-stock td:not(.counter) { opacity: .7; }
        .counter { white-space: nowrap; }
        .counter form { display: inline-flex; gap: .25rem; margin: 0 .25rem .25rem 0; vertical-align: top; }
        .counter button { min-width: 2.75rem; min-height: 2.75rem; }
        .counter input[type=number] { width: 4.5rem; }
        @media (max-width: 40rem) { input[type=text], input:not([type]), input[type=search] { width: 100%; } th, td { padding: .25rem; } .facts { grid-template-columns: minmax(0, 1fr); } }
        @media (max-width: 40rem) {
          #items-table thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
          #items-table tr { display: flex; flex-wrap: wrap; gap: 0 .75rem; align-items: baseline; padding: .5rem 0; border-bottom: 1px solid #8884; }
          #items-table td { border: 0; padding: 0; }
          #items-table td:first-child { flex-basis: 100%; font-weight: 600; }
          #items-table td.counter { flex-basis: 100%; white-space: normal; padding-top: .25rem; }
          #items-table td.version::before { content: "version "; }
        }
        """

    /// Live updates of an open list: the page listens to `/api/events` from the position it
    /// was rendered at (with the open conflicts' count), and on any event fetches itself again
    /// and swaps the sync's line and the table, the table unless the
    /// keyboard focus is in it (a row's field or button), then as soon as focus leaves. The
    /// page works without it; with it, an item added by anyone shows as soon as it is
    /// committed (the stream is woken by the commit: docs/observation.md).
    static let live = """
        "use strict";
        (function () {
          var table = document.getElementById("items");
          if (!table || !window.EventSource) return;
          var busy = false, again = false, waiting = false;
          function refresh() {
            if (busy) { again = true; return; }
            busy = true;
            fetch(location.href, { headers: { "Accept": "text/html" }, credentials: "same-origin" })
              .then(function (response) { return response.ok ? response.text() : null; })
              .then(function (text) {
                if (!text) return;
                var page = new DOMParser().parseFromString(text, "text/html");
                // The sync's line (open conflicts, a replica's state): links only, swapped at once.
                var state = page.getElementById("sync-state"), shown = document.getElementById("sync-state");
                if (state && shown && state.outerHTML !== shown.outerHTML) {
                  shown.innerHTML = state.innerHTML;
                  shown.setAttribute("data-conflicts", state.getAttribute("data-conflicts"));
                }
                var fresh = page.getElementById("items");
                var current = document.getElementById("items");
                if (!fresh || !current || fresh.innerHTML === current.innerHTML) return;
                // Not under the user's hands: swapping the rows would drop a number being typed
                // into a row's field, and the keyboard focus. Refresh once focus leaves the table.
                if (current.contains(document.activeElement)) {
                  if (waiting) return;
                  waiting = true;
                  current.setAttribute("data-stale", "");
                  current.addEventListener("focusout", function later(event) {
                    if (current.contains(event.relatedTarget)) return;
                    current.removeEventListener("focusout", later);
                    waiting = false;
                    refresh();
                  });
                  return;
                }
                current.innerHTML = fresh.innerHTML;
                current.removeAttribute("data-stale");
              })
              .catch(function () {})
              .then(function () { busy = false; if (again) { again = false; refresh(); } });
          }
          var state = document.getElementById("sync-state");
          var source = new EventSource("/api/events?after=" + encodeURIComponent(table.getAttribute("data-position") || "0")
                                       + (state ? "&include=conflicts" : ""));
          \(TagSpellings.jsonArray(TagSpellings.eventKinds)).forEach(function (kind) { source.addEventListener(kind, refresh); });
          // A sync opens and closes conflicts, not always with an item's change: the stream says
          // how many are open, and the page is fetched again when that is not what it shows.
          source.addEventListener("conflicts", function (event) {
            var shown = document.getElementById("sync-state"), open = null;
            try { open = JSON.parse(event.data).open; } catch (error) { return; }
            if (shown && String(open) !== shown.getAttribute("data-conflicts")) refresh();
          });
        })();
        """

    static func register(on router: Router<BasicRequestContext>) {
        router.get("/assets/style.css") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/css; charset=utf-8", .cacheControl: "max-age=300"],
                     body: .init(byteBuffer: ByteBuffer(string: style)))
        }
        router.get("/assets/live.js") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/javascript; charset=utf-8", .cacheControl: "max-age=300"],
                     body: .init(byteBuffer: ByteBuffer(string: live)))
        }
    }
}

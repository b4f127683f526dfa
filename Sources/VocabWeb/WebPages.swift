import Foundation

/// The web app's files, inside the binary: HTML, CSS and JavaScript written by hand (ES
/// modules, no framework, no build step), the manifest, the service worker and the icons.
/// Served by name only.
enum WebPages {
    struct File {
        let type: String
        let bytes: [UInt8]

        init(type: String, text: String) {
            self.type = type
            bytes = Array(text.utf8)
        }

        init(type: String, base64: String) {
            self.type = type
            bytes = Data(base64Encoded: base64).map { [UInt8]($0) } ?? []
        }
    }

    static let files: [String: File] = [
        "/index.html": File(type: "text/html; charset=utf-8", text: index),
        "/app.js": File(type: "text/javascript; charset=utf-8", text: script),
        "/style.css": File(type: "text/css; charset=utf-8", text: style),
        "/sw.js": File(type: "text/javascript; charset=utf-8", text: serviceWorker),
        "/manifest.webmanifest": File(type: "application/manifest+json", text: manifest),
        "/icon-192.png": File(type: "image/png", base64: icon192),
        "/icon-512.png": File(type: "image/png", base64: icon512),
    ]

    /// What a phone needs to install the app: a name, icons of 192 and 512 px, standalone.
    static let manifest = """
        {"id": "/", "name": "Vocab", "short_name": "Vocab", "start_url": "/", "scope": "/", "display": "standalone",
         "theme_color": "#1a5fb4", "background_color": "#fafafa",
         "icons": [{"src": "/icon-192.png", "sizes": "192x192", "type": "image/png"},
                   {"src": "/icon-512.png", "sizes": "512x512", "type": "image/png", "purpose": "any maskable"}]}
        """

    /// The service worker: the shell (page, script, style, manifest, icons) is kept on the phone,
    /// so the app opens with no network; each file is asked of the server first (an update shows
    /// at once) and taken from the phone when the server cannot be reached. The API is never cached.
    static let serviceWorker = """
        const SHELL = "vocab-shell-2";
        const FILES = ["/", "/app.js", "/style.css", "/manifest.webmanifest", "/icon-192.png", "/icon-512.png"];
        self.addEventListener("install", (event) => {
          event.waitUntil(caches.open(SHELL).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
        });
        self.addEventListener("activate", (event) => {
          event.waitUntil(caches.keys().then((names) => Promise.all(names.filter((name) => name !== SHELL).map((name) => caches.delete(name))))
            .then(() => self.clients.claim()));
        });
        self.addEventListener("fetch", (event) => {
          const url = new URL(event.request.url);
          if (event.request.method !== "GET" || url.origin !== self.location.origin || url.pathname.startsWith("/api/")) return;
          const key = event.request.mode === "navigate" ? "/" : url.pathname + url.search;
          event.respondWith(fetch(event.request).then((response) => {
            if (response.ok) { const copy = response.clone(); caches.open(SHELL).then((cache) => cache.put(key, copy)); }
            return response;
          }).catch(() => caches.match(key).then((cached) => cached || Response.error())));
        });
        """

    static let icon192 = "iVBORw0KGgoAAAANSUhEUgAAAMAAAADACAMAAABlApw1AAAAJFBMVEUZXrMcYLQpabmxyOX+/v7Q3u9wm9CPsdpDfMFUh8c/ecCivuCH/LUMAAAIoklEQVR42t1biZbaOgxFYSBQ/v9/H5Qpk0XLvZKc9jyfninEtjZrdzidjCHOt/KQzScQfLwMA5TlBtknu09irMhRIe6MQM85PrwdAu318HGQ08IpD49TgZ+PpNU6f4oEgVcmqLOfC7xR4iUZqmX7seN4eBgxJ/iZeQtyPIrxmcUP7BVirQ0ge5TibxP1Y5pces/Q2BxgldDPcH4IMG8cyOa8AX2N8DUJV+InmbSg4u4LAbZsnPpGWxVAhBIvoQgaCcjx6Lsp1/vDuPAYm0IEBgfKDn1XUk52iF0Zq+wL/9sVqZQesbkIEsRSsrpj0Qm4DgBbs34/B6h6FtE/JXkQ4HOJ+dJ6pJwso5LUrmAJ5qUia8sUyj9zGb0bmzx2xJU6Hrz8qUrQOwc7hzHxjD+cYunBr0BL9dgTsInWuLwapZNvuzGH9Fe0iPbmmm1w2WJrw7AdFhIH1p/EWaHrDua96mx2Wsz4JgUioWH0xEY+TAB0B8oWDk870wlYKDtHc7L5id+HcMPgYdiwT0WQicPojOlNbKKRsen7sd3TTGskXqXBtvDpz02d9orsljLaUdW+o6n2B8DpchAk6o+jzXpoXOObpn++tXR7qbBSTSsC3+w0f9P8ZcfhoYMggzszliUouWauG2LzYaMS5n3jywVtzglWcRzr0ZqCYWdNKMlSvt1vguevasKYhKWER1r8Ua3Hf6MxcJJJZJqe/77/PP9y0H5vmk7v/b9BnESeub56JUSmGr7+vCfPX5evy/vf88/zv9fHKy6h62vXz873v3NeoIDItwQo44LtfX0/a/tnKA0RHzImwNOkEfB1wyCLsX2idaWw3BAhOGZt97lq4FRkv6s6hFYEF2331e3F2PUb4tH3zyeVhjvQMnuOX6oG7TKXsT2wh0bDI6qd3g9mZC98Bg6DdjZn2OFl8nj+QDBOz5cu66HC54Qeb4ZuP0WK2EaEWJ4khCGhBzskq/F8uaKDS5p0+59QApoYsAR5jSGoGnR2UCEXLpm7E0KVV+NBMw5bguz+evvF0KGA7ymzLTssPyq2KOeoXFPzwKGJqDluCR0SLwhggtw+h4pDfUKl5XZyx5TgGhz4regfK1G14eHrkBo+ZgeNL3KEJ3u9mpQF6UTm1Dh6PQFs59RQ4OpzZDemQpfvLNT1vEdRNcgOAqkOFpEQqgph65AYGoQFgSH3b0ZUNTN7OI2ASWXuwpXBEuQwvK9bklL2C4fNDJlZqssvApG6eZUA4g7gg3DrVuCYiwpduyZW3eLZAmMEAeFwomLHQJx1mlTIQBphJMQs7eHcz7EZWqFCUNdCZbTCHkY7cIkfS/WzNbL4YcWweE/xdIKxF0C4PSybKaky0DRCyYcIrQFKyc1XVTG0jUbegd1WeflOfA6u8aiCVXTIiNpSehUkPIUQuMCq/dAZRd0HKGV0bhktVDPepRNGGsG+HkCsh0tMw71vhqpB80eD9OIv+fYDObA6HTsnRvLeQuAUF0oE0QZxCfIQpKPATcLa9RnasRqInpW0w2Iq5kYMD79epZ0SeB+S5gdfa3jIxVDtxGlJu/E0xZqrcrEOqRp0A4AHRBgROe7Hr6sGCXXIW+DBRypktqWoDVXACx1So/WMw1cXdkYEVcUXKamaL3U1FJPMrLf4oSBWsQCBr0kdOqSa8TWYDTOHtkQvFpJaWX5e3zDOp4GQqC4wrEVZ6emQxR14n8IU8fnh6ZA6d1dcJSZobBUX/8S1UzWN8GlKlGEEp+pC21OqpQwXBFLWjF2WfL6ooWD2WStKsXm7qUNIEDDtIbZnsh9PphM342iuW5htlqxABQtTVdUfhgb9KtNav+TbPVFDgd4RTb9aYPfOGwKD7u5VDboD4MCOXfIqUx2qDmka9GooOiKMp6y1XkEBcKhquzbe7SAkq2ffLVCoDhKWJc83lIEbhHnAiGR2wejveTlF0Z4y/1eMgfgda3G/srzhY8IYMG6V8HdNaNoD2/8ZZ4T+vAaRJs0XlpgOXV2IXEuNnwlWIGY8EZIM3blggOBGDBAKHj4SbNSaE864xwwgaQR9tdEXQEIdsl8tQGna7XGdLnmfGZvx7jX1oMKt9yS4xWEouLlQA2QhLeV6X6JQgASBnkZQ1mQCHbryEIcMO8gFOtT0mnqOYewOzQ0FpV+7xT0J8ZbacJZbg6rgbqYNFv69J0p3J9DhhALwDUWaQHeCwyhuOjHbaPCJcEOmKbN84Jjx3YFi4cfSHnNJ5sS/Q8Hr19JL9aHaQTT+TAJtpRny+oH6+0fnT53//rH5+5uJrIy/icuxA+LSqY6MkjIrGv0cePz/g9HWAEAtr9o1QfcBHeDyDfl4/HBLJTdQ78Pe1afITceOKn6ne43syhyO4cZS+Fff6m2vn7meFlVyx99yuXtB5vEzxpLEQt8cuW4IhVZvIic6EiCdJXVR02H7yHpaDzkKNw+OspKMs+WdUoqbJP6MRcJCR1v3uSYukFMULvtb7LpfLwX43MILjJ8p4hNIcuJooWENvOX+leK2G39LEdCKLdUT4JGPzeXKhBv+DAkHLdLyT8FKh3PXKiAZWfyQG0RJFHsjHjXKKs4ef7YYSsXKXHJx1KhQx4ojds+qfrc104HwAFVEwnzNCgteh5ZnjcNpsubuBXocJRDROESt8tw5nUaNSOH3cSkeD6Emn2Tn8RcdRIZkTC6AszmmeaRP9eP/nslF77bSkMSPM6plocNqnj1+TVASLy8wbD50kAwodnEq0U0NtA286dhtyGUGNfwxICvxkXhPoXsObsUTcQBMQnh9nQQsv6xiaYEIqUAnoS0quF7U57/4Dksef1pPfaJJzzPA5UPmnkg4eJdaxx/JNtuqTYaHsG3iWnFTkufR1oifEMtBzVANxBDEYzrIfR26te/gepZbt3NsjN8jCHwE35Al8RMAk92wLsIz3Y9c9t7XBYea3KaTPcqrWGkHBvM/b0Y8QYhRI68AAAAASUVORK5CYII="
    static let icon512 = "iVBORw0KGgoAAAANSUhEUgAAAgAAAAIACAMAAADDpiTIAAAAJFBMVEUaX7QcYLRUh8eNr9lvms8sbLr+/v7P3u+xyeVEfMGhveA+eL9FKbvVAAAIkUlEQVR42u3d23LcNhAFQFGXSLH//3/jVKVSjmNJy8MBMFh1P/nFuxQWxACHIPnwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAHzqOB6O1cdAhcenE55/+vfL/A5wnDnWnz2ubuW+jpc/Qk/zO8BzeqzPq5u5r+PhNWzU1/kH+5Z2ANXqA/Fp9efc4zwe4sHqbXUbtxY367e5x3kccVc1BfjQLgPrERcrFeBDj2kHmDy1yqerq1u4t+NIG3ZuaT2e0uNcsGDdS9yycxs2rQCmgJ/5M+0AU2vAHke5pXx2NfMov6Ud4GV1+7Z3obpOPEgVYJwN5tdHvFYRAtwgjQLmrbCP+BBXt+0W+sfB8VpVCHCLuHmnxcFxF/2+um33kE6xpw2wKsBYradYx4VdC0KAG3VeZB0XLgQKAW4URwFTjk4IMFzvMTY+OiHAzVqfY73Hp/vQusqmvVMIcLvOcXC8RhECnBBHAePj4PYpxR048qst42tAemQqwO1+rLXbFtrGXfOupFPt4QNtGgMLAU7J49bBi+3eEcX9yGvA2EuCeQxsM/BJaUuPrQHxVpDJdy7dgZ5jbdfKdIfic23obKvt3PQOxeutkdW27er0Dr2kjT2wBsT3gwgBAg2H24aHdMf6nW7x2lQIEGlXcFtOS+5YuwE3vRAoBMjEi+5Rd4ikxyMECMWx25ght2c4ec/iFh8zDUz7oxAgFd8kNmTMjSuSECDWatalAswXr7tGHIwQYIG00R/rp4F5BZAC5NIo4K2+0eND8Sj7CxpNvPLBSAfI5el7dbOnVyZeH3SAK+Kpd3Wzt1qQfCFxFFBcA+LdCZOfY39/msRv6YLUw8Gvilu+9jDSfigEuCyefVceRJdK9BWl6+/S2Vc6F3VD2HVxFFB5ECrAQg1qQItO+GU1GH7TQ7AToEJ8+tWtwPJByCqwwPICnHbB10MMXCGNAspqQLoQeXYdoMTyRXhaAYQARdIzsGgOtnwE+vLyS7El8gpAkXQMrnk2Y/jlbggr8mMila7DS+JgFWC1I35mWEkNSFehbggrtPBHSNcgbgeotHAYFgO3EP4KBVdjhAAtpHsyL9eAPAZe3WT3ZVkNSCuAEKDYqpFYBWhiURz3PfxaIUC1RVHAsrkHv4rH4kuzsfRbV7fWHUqngU9Xrsmnl6GEAPWWJHJpAumZAAOsiIPjTqcD1EtrwIWHxqVfWX5zOg/5swLyh8bF7ywQAoxwpFFAXAPSpacQYIiX6b+HGLiZdFGeFmQhQDOTz8h0xPFUmFEmRwHT5xx8Zu6sPF11WAIOE6/Lky9LY2BTwHGm1oC0AggBxomjgOQOkfCrhAADxTcIPJ2vy1PLDbdKJ2bnvymdcJoCjhS/vv300iydbggBhoprwOnfZVpP44wjvkB39pvC73FD2GiTzsx4trm6fe5e+tjuk6uztJ8JAYZLN2qf+2nmrTY4acb6PJ5rCgEmmHFypomjEGCCGeV5zkSDyIQJenohUAgwQ7w7+PavCCeadgLMkdaA29/fFH5BcMmJwPCYPl1o1DyWkE+lI/Stny8Gbi49Q2+do4UfLwSYZuwqTQzc3ticJqwAA95YzjuGJrXphz/qAPOMrAFi4A2MLNNh57IXbKqwA9wQ1aQxsCngVOlS/fMOEFYAIcBcaRTw6Xma7jiyF2yu9IrQp5V6WM+i1qg4OPxcOwFmS+dqn1wSTC80iYGnG1MD0vXl6tb4gsb8VOHqQggwX5zYfvShaQWwF2y6+CaxD6dr4bAiBFjgGLFgEwLsJPy1PniQb1pWhABL1O/dDWNgIcAa6ft83j9f0zFldUt8VdW/lwuBm6mes6sAm0nnbO/FweHHCQFWKb4kGK4rhQDrpDXg9+uAcFUhBl6nNLlNP8wbwhaqvHofDyc6wDppHPy7zwqvLQgBlqqLAsTAW0qX7v8ftsMK8KYCLFV33oZjyaOXhK5VVQPSnuTnX6wqDg5riZ0Aq8Wr918+JxxJPBVmuXD19supG14IFAOvlyb4/x0CwgrwbAqwXjx9/1n2GWLgDiqmb+EwYidABxULODHwto4j3RXw0zN90qWEArDejw4Qh7j/fkj4CUKABo6CGpDeZGQvWBNXK3jYg4QAXVyNg8XAuwungS81/53lwp1h/5zCYQUQAvRxKclP30kvBGgjjgK+X8kRhAB9pFHA3zUgfc6A2wE6ubKQCyuAEKCVPMoJY2AhQC9pHCwGvhP55Zxw7Lj9HXRMEUYBzyrAnQijgLewAggB2klfKJv9NzFwO+mrfiJi4HaOdFdARAjQTvzo2Mjqv5b/iXeGJYQADR1pFBAQArQ0rQYIAXpKnxdzmhCgqXBNf5oQoKlJUYDXhHc1KQoQArQ1pwas/it515QowF6wvqbUACFAW1PiYI+GbSx+k9gJzzpAZ+OngZ4K01q4M+x2dgL0lr736WaPBoDeRtcAv39zg6MAMXB3g6MAMXB3Y6OAVwNAe0OjAHvB+hu6M8xOgP6OgVGAvWA7GFgD7AXbwrgoQAXYwrCdYWLgPQyLAoQAmxgUBQgBdjEoDhYC7GJQFOANYbsYEwcLAfYxJArwhrB9vIyIAoQAGxkQBQgBdjIgChACbKW+Bqz+izilPAoQAuylPApwQ9hmiqMAIcBuiqMAFWA7tR1ACLCd0ihACLCf0pvE7AXbUGUU4DLAhgqjAE+F2VFhHCwE2FJZFCAE2FNZDRAC7KksDhYCbKooClABdlUUBQgBtlUTBQgBtlVSA8TA+yqJAuwF21hBFOCGMAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAHjXX3S6JOyhXz1nAAAAAElFTkSuQmCC"

    static let index = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Vocab</title>
        <link rel="stylesheet" href="/style.css">
        <link rel="manifest" href="/manifest.webmanifest">
        <link rel="apple-touch-icon" href="/icon-192.png">
        <meta name="theme-color" content="#1a5fb4">
        <script type="module" src="/app.js"></script>
        </head>
        <body>
        <p id="offline" hidden data-t="No connection: studying goes on with the cards kept on this phone; your grades are sent when you are back."></p>
        <header><h1>Vocab</h1><nav><span id="tabs" hidden><button data-page="books" data-t="Books"></button><button data-page="study" data-t="Study"></button></span><button id="language">한국어</button></nav></header>
        <main>
        <section id="pair" hidden>
          <p data-t="Type the pairing code that the Vocab server shows on the computer."></p>
          <form id="pair-form"><input id="pair-code" inputmode="numeric" autocomplete="one-time-code" data-t-label="Pairing code" required>
          <button data-t="Pair"></button></form>
          <p id="pair-error" class="error" role="alert"></p>
        </section>
        <section id="books" hidden>
          <ul id="shelf"></ul>
          <form id="book-form"><input id="book-name" data-t-label="New book" data-t-placeholder="New book" required><button data-t="Add"></button></form>
          <p id="book-error" class="error" role="alert"></p>
        </section>
        <section id="words" hidden>
          <button id="back" data-t="‹ Books" data-t-label="Back to the books"></button>
          <h2 id="book-title"></h2>
          <form id="word-form" class="fields">
            <input id="word-word" data-t-label="Word" data-t-placeholder="Word" autocapitalize="off" autocorrect="off" spellcheck="false" required>
            <input id="word-definition" data-t-label="Definition" data-t-placeholder="Definition" autocapitalize="off">
            <div id="senses" hidden></div>
            <input id="word-detail" data-t-label="Detail" data-t-placeholder="Detail" autocapitalize="off">
            <input id="word-pronunciation" data-t-label="Pronunciation" data-t-placeholder="Pronunciation" autocapitalize="off" autocorrect="off">
            <input id="word-synonym" data-t-label="Synonym" data-t-placeholder="Synonym" autocapitalize="off">
            <input id="word-antonym" data-t-label="Antonym" data-t-placeholder="Antonym" autocapitalize="off">
            <div class="toolbar"><button type="button" id="dictionary" data-t="Dictionary"></button><a id="web-link" target="_blank" rel="noopener" hidden data-t="Web dictionary"></a><button id="done" data-t="Done"></button></div>
          </form>
          <p id="word-error" class="error" role="alert"></p>
          <ul id="word-list"></ul>
        </section>
        <section id="study" hidden>
          <div id="card"><p id="card-word" class="big"></p><p id="card-answer" hidden></p></div>
          <button id="show" data-t="Show answer"></button>
          <div id="ratings" hidden></div>
          <p id="study-status"></p>
        </section>
        </main>
        </body>
        </html>
        """

    static let style = """
        * { box-sizing: border-box; }
        [hidden] { display: none !important; }
        body { margin: 0; font: 17px/1.4 system-ui, sans-serif; color: #222; background: #fafafa; }
        /* At the bottom, over the page: appearing, it moves nothing a finger is about to tap. */
        #offline { position: fixed; left: 0; right: 0; bottom: 0; margin: 0; padding: 8px 16px; background: #f6d32d; font-size: 15px; z-index: 1; }
        body { padding-bottom: 72px; }
        header { display: flex; align-items: center; justify-content: space-between; padding: 8px 16px; background: #1a5fb4; color: white; }
        header h1 { font-size: 20px; margin: 0; }
        nav button { background: none; border: 0; color: white; font-size: 16px; padding: 8px; }
        #language { font-size: 14px; opacity: 0.9; }
        main { padding: 16px; max-width: 640px; margin: 0 auto; }
        ul { list-style: none; padding: 0; }
        li { background: white; border-radius: 8px; padding: 12px; margin-bottom: 8px; box-shadow: 0 1px 2px #0002; }
        li button { all: unset; display: block; width: 100%; cursor: pointer; }
        form { display: flex; flex-wrap: wrap; gap: 8px; margin: 12px 0; }
        form.fields { flex-direction: column; }
        form.fields input { flex: none; }
        .toolbar { display: flex; gap: 8px; align-items: center; }
        .toolbar #done { margin-left: auto; background: #1a5fb4; color: white; border-color: #1a5fb4; }
        #senses button { display: block; width: 100%; text-align: left; font-size: 15px; padding: 6px 8px; margin-bottom: 4px; border: 0; background: #eef3fb; }
        input { flex: 1 1 160px; font-size: 17px; padding: 10px; border: 1px solid #ccc; border-radius: 6px; }
        button { font-size: 17px; padding: 10px 16px; border-radius: 6px; border: 1px solid #ccc; background: white; }
        .error { color: #c01c28; min-height: 1em; }
        .dim { color: #666; font-size: 15px; }
        .big { font-size: 32px; font-weight: bold; text-align: center; }
        #card { background: white; border-radius: 12px; padding: 24px; margin: 12px 0; text-align: center; }
        #ratings { display: grid; grid-template-columns: repeat(4, 1fr); gap: 6px; }
        #ratings button { padding: 10px 4px; }
        """

    static let script = """
        // Vocab's web app: pairs the device, then talks to /api/ (every write says it comes from here).
        const $ = (id) => document.getElementById(id);
        const pages = ["pair", "books", "words", "study"];
        const RATINGS = { again: "Again", hard: "Hard", good: "Good", easy: "Easy" };

        // The window's catalogue (English text is the key), in the browser's language or the one chosen.
        let catalog = {};
        function t(text, ...values) {
          let out = catalog[text] || text;
          for (const value of values) out = out.replace(/%[@d]/, value);
          return out;
        }
        async function loadCatalog() {
          const chosen = localStorage.getItem("vocab.language") || (navigator.language || "en").slice(0, 2);
          const answer = await fetch(`/catalog.json?lang=${encodeURIComponent(chosen)}`).then((r) => r.json())
            .catch(() => ({ language: "en", entries: {} }));
          catalog = answer.entries || {};
          document.documentElement.lang = answer.language;
          for (const element of document.querySelectorAll("[data-t]")) element.textContent = t(element.dataset.t);
          for (const element of document.querySelectorAll("[data-t-placeholder]")) element.placeholder = t(element.dataset.tPlaceholder);
          for (const element of document.querySelectorAll("[data-t-label]")) element.setAttribute("aria-label", t(element.dataset.tLabel));
          $("language").textContent = answer.language === "ko" ? "English" : "한국어";
        }
        let openBook = null, card = null, version = -1, filled = {};
        const fields = ["word", "definition", "detail", "pronunciation", "synonym", "antonym"];
        const formValues = () => Object.fromEntries(fields.map((name) => [name, $("word-" + name).value]));

        async function api(method, path, body) {
          const response = await fetch("/api/" + path, {
            method, credentials: "same-origin",
            headers: body === undefined ? {} : { "Content-Type": "application/json", "X-Vocab-Request": "1" },
            body: body === undefined ? undefined : JSON.stringify(body),
          });
          if (response.status === 401) { show("pair"); throw new Error("not paired"); }
          const text = await response.text();
          const data = text ? JSON.parse(text) : {};
          if (!response.ok) { const error = new Error(t(data.error || response.statusText)); error.field = data.field; throw error; }
          return data;
        }

        function show(page) {
          for (const name of pages) $(name).hidden = name !== page;
          $("tabs").hidden = page === "pair";
          if (page === "books") loadBooks();
          if (page === "study") loadCard();
        }

        function item(text, detail, onClick) {
          const li = document.createElement("li");
          const button = document.createElement("button");
          button.textContent = text;
          if (detail) { const small = document.createElement("div"); small.className = "dim"; small.textContent = detail; button.append(small); }
          if (onClick) button.addEventListener("click", onClick); else button.disabled = true;
          li.append(button);
          return li;
        }

        async function loadBooks() {
          const books = await api("GET", "books");
          $("shelf").replaceChildren(...books.map((book) =>
            item(book.name, t("%d words · %d due", book.wordCount, book.dueCount), () => openWords(book))));
        }

        async function openWords(book) {
          openBook = book;
          $("book-title").textContent = book.name;
          show("words");
          await loadWords();
        }

        async function loadWords() {
          const page = await api("GET", `books/${openBook.id}/words?limit=100`);
          $("word-list").replaceChildren(...page.words.map((word) => item(word.word, word.definition)));
        }

        // IndexedDB: reviews made with no network wait here, each with an id made on the phone.
        function outbox(mode, work) {
          return new Promise((resolve, reject) => {
            const opening = indexedDB.open("vocab", 1);
            opening.onupgradeneeded = () => opening.result.createObjectStore("outbox", { keyPath: "id" });
            opening.onerror = () => reject(opening.error);
            opening.onsuccess = () => {
              const transaction = opening.result.transaction("outbox", mode);
              const request = work(transaction.objectStore("outbox"));
              transaction.oncomplete = () => resolve(request && request.result);
              transaction.onerror = () => reject(transaction.error);
            };
          });
        }

        // Sends what waits (at start, when back online, when the page is shown again: Safari has
        // no background sync); the server keeps each review's time and ignores one it has.
        async function flush() {
          const waiting = await outbox("readonly", (store) => store.getAll());
          if (!waiting || waiting.length === 0) return;
          await api("POST", "reviews", { reviews: waiting });
          await outbox("readwrite", (store) => { for (const review of waiting) store.delete(review.id); });
        }

        // The day's queue, kept on the phone: studying goes on in a tunnel.
        async function keepQueue() {
          const queue = await api("GET", "study/queue");
          // Cards graded on the phone while this was on its way stay graded.
          const { kept } = offlineCard();
          const graded = kept.graded.filter((id) => queue.cards.some((card) => card.id === id));
          localStorage.setItem("vocab.queue", JSON.stringify({ cards: queue.cards, graded }));
        }

        function offlineCard() {
          const kept = JSON.parse(localStorage.getItem("vocab.queue") || '{"cards": [], "graded": []}');
          const left = kept.cards.filter((card) => !kept.graded.includes(card.id));
          return { kept, card: left[0] || null, left: left.length };
        }

        // The card whose answer is showing (it stays so when the page is drawn again), and the
        // newest load (an older one that answers late draws nothing).
        let revealed = null, loading = 0;

        async function loadCard() {
          const mine = ++loading;
          let next;
          try {
            next = await api("GET", "study");
            keepQueue().catch(() => {});
          } catch (error) {
            if (!(error instanceof TypeError)) throw error;
            const { card: kept, left } = offlineCard();
            next = { card: kept, dueCount: left, newCount: 0, intervals: ["again", "hard", "good", "easy"].map((rating) => ({ rating })),
                     reason: "nothingDue", offline: true };
          }
          if (mine !== loading) return;
          card = next.card;
          // A card whose answer is showing stays so (the learner is rating it), as in the window.
          const keep = !!card && revealed === card.id;
          $("show").hidden = !card || keep;
          $("ratings").hidden = !keep;
          $("card-answer").hidden = !keep;
          $("card-word").textContent = card ? card.word : "";
          $("study-status").textContent = card ? (next.offline ? t("%d left on this phone", next.dueCount) : t("%d due · %d new", next.dueCount, next.newCount))
            : next.reason === "noWords" ? t("No words yet: add some on the Books page.") : t("Nothing to study now.");
          if (card) {
            $("card-answer").textContent = card.definition;
            $("ratings").replaceChildren(...next.intervals.map((choice) => {
              const button = document.createElement("button");
              button.textContent = t(RATINGS[choice.rating] || choice.rating);
              button.dataset.rating = choice.rating;
              if (choice.interval) {
                const interval = document.createElement("small");
                interval.textContent = intervalText(choice.interval);
                button.append(document.createElement("br"), interval);
              }
              button.addEventListener("click", () => grade(choice.rating));
              return button;
            }));
          }
        }

        // "10m", "4d", "1.5y" (Korean "10분", "4일", "1.5년"): the server rounds as the window's buttons do.
        function intervalText(interval) {
          return t(interval.unit === "y" ? "%@y" : `%d${interval.unit}`, interval.count);
        }

        // A grade waits in IndexedDB first (with its own id and time) and is sent at once when
        // the server can be reached: offline or not, nothing is lost and nothing counts twice.
        async function grade(rating) {
          const review = { id: crypto.randomUUID(), wordId: card.id, rating, at: new Date().toISOString() };
          revealed = null;
          await outbox("readwrite", (store) => store.put(review));
          const { kept } = offlineCard();
          kept.graded.push(card.id);
          localStorage.setItem("vocab.queue", JSON.stringify(kept));
          try { await flush(); } catch (_) { /* offline: sent when back */ }
          await loadCard();
        }

        async function poll() {
          try {
            const { version: now } = await api("GET", "changes");
            if (version !== -1 && now !== version) {
              if (!$("books").hidden) loadBooks();
              if (!$("words").hidden) loadWords();
            }
            version = now;
            connection(true);
          } catch (error) { if (error instanceof TypeError) connection(false); /* else not paired: try again later */ }
        }

        function form(id, errorId, action) {
          $(id).addEventListener("submit", async (event) => {
            event.preventDefault();
            $(errorId).textContent = "";
            try { await action(); } catch (error) { if (error.message !== "not paired") $(errorId).textContent = error.message; }
          });
        }

        form("pair-form", "pair-error", async () => { await api("POST", "pair", { code: $("pair-code").value }); show("books"); });
        form("book-form", "book-error", async () => { await api("POST", "books", { name: $("book-name").value }); $("book-name").value = ""; loadBooks(); });
        form("word-form", "word-error", async () => {
          await api("POST", "words", { bookId: openBook.id, ...formValues() });
          for (const name of fields) $("word-" + name).value = "";
          filled = {}; $("senses").hidden = true; $("web-link").hidden = true;
          loadWords();
        });

        // Dictionary: the server fills the empty fields (the meaning met most); the others are a tap away.
        async function lookUp(sense) {
          $("word-error").textContent = "";
          try {
            const answer = await api("POST", "dictionary", { ...formValues(), filled, ...(sense === undefined ? {} : { sense }) });
            for (const name of fields) $("word-" + name).value = answer.form[name];
            filled = answer.filled;
            $("senses").replaceChildren(...answer.senses.map((text, index) => {
              const button = document.createElement("button");
              button.type = "button";
              button.textContent = `${index + 1}. ${text}`;
              button.addEventListener("click", () => lookUp(index));
              return button;
            }));
            $("senses").hidden = answer.senses.length < 2;
            if (answer.webURL) { $("web-link").href = answer.webURL; $("web-link").hidden = false; }
          } catch (error) { if (error.message !== "not paired") $("word-error").textContent = error.message; }
        }
        $("dictionary").addEventListener("click", () => lookUp());
        $("back").addEventListener("click", () => show("books"));
        $("show").addEventListener("click", () => {
          revealed = card && card.id;
          $("card-answer").hidden = false; $("ratings").hidden = false; $("show").hidden = true;
        });
        for (const button of document.querySelectorAll("#tabs button")) button.addEventListener("click", () => show(button.dataset.page));
        // Offline: the shell comes from the service worker; the page says the server cannot be reached.
        function connection(online) { $("offline").hidden = online; }
        window.addEventListener("online", () => { connection(true); flush().catch(() => {}); poll(); });
        document.addEventListener("visibilitychange", () => { if (!document.hidden) flush().catch(() => {}); });
        flush().catch(() => {});
        window.addEventListener("offline", () => connection(false));
        if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => {});
        if (navigator.storage && navigator.storage.persist) navigator.storage.persist().catch(() => {});
        $("language").addEventListener("click", () => {
          localStorage.setItem("vocab.language", document.documentElement.lang === "ko" ? "en" : "ko");
          loadCatalog().then(() => { if (!$("books").hidden) loadBooks(); if (!$("study").hidden) loadCard(); });
        });
        loadCatalog().then(() => api("GET", "books")).then(() => { connection(true); show("books"); },
                                                          (error) => { if (error instanceof TypeError) connection(false); });
        setInterval(poll, 1000);
        """
}

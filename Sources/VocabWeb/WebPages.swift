/// The web app's files, inside the binary: HTML, CSS and JavaScript written by hand (ES
/// modules, no framework, no build step). Served by name only.
enum WebPages {
    struct File {
        let type: String
        let text: String
    }

    static let files: [String: File] = [
        "/index.html": File(type: "text/html; charset=utf-8", text: index),
        "/app.js": File(type: "text/javascript; charset=utf-8", text: script),
        "/style.css": File(type: "text/css; charset=utf-8", text: style),
    ]

    static let index = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Vocab</title>
        <link rel="stylesheet" href="/style.css">
        <script type="module" src="/app.js"></script>
        </head>
        <body>
        <header><h1>Vocab</h1><nav id="tabs" hidden><button data-page="books">Books</button><button data-page="study">Study</button></nav></header>
        <main>
        <section id="pair" hidden>
          <p>Type the pairing code that the Vocab server shows on the computer.</p>
          <form id="pair-form"><input id="pair-code" inputmode="numeric" autocomplete="one-time-code" aria-label="Pairing code" required>
          <button>Pair</button></form>
          <p id="pair-error" class="error" role="alert"></p>
        </section>
        <section id="books" hidden>
          <ul id="shelf"></ul>
          <form id="book-form"><input id="book-name" aria-label="New book's name" placeholder="New book" required><button>Add</button></form>
          <p id="book-error" class="error" role="alert"></p>
        </section>
        <section id="words" hidden>
          <button id="back" aria-label="Back to the books">‹ Books</button>
          <h2 id="book-title"></h2>
          <form id="word-form" class="fields">
            <input id="word-word" aria-label="Word" placeholder="Word" autocapitalize="off" autocorrect="off" spellcheck="false" required>
            <input id="word-definition" aria-label="Definition" placeholder="Definition" autocapitalize="off">
            <div id="senses" hidden></div>
            <input id="word-detail" aria-label="Detail" placeholder="Detail (an example)" autocapitalize="off">
            <input id="word-pronunciation" aria-label="Pronunciation" placeholder="Pronunciation" autocapitalize="off" autocorrect="off">
            <input id="word-synonym" aria-label="Synonym" placeholder="Synonyms" autocapitalize="off">
            <input id="word-antonym" aria-label="Antonym" placeholder="Antonyms" autocapitalize="off">
            <div class="toolbar"><button type="button" id="dictionary">Dictionary</button><a id="web-link" target="_blank" rel="noopener" hidden>Web dictionary</a><button id="done">Done</button></div>
          </form>
          <p id="word-error" class="error" role="alert"></p>
          <ul id="word-list"></ul>
        </section>
        <section id="study" hidden>
          <div id="card"><p id="card-word" class="big"></p><p id="card-answer" hidden></p></div>
          <button id="show">Show answer</button>
          <div id="ratings" hidden></div>
          <p id="study-status"></p>
        </section>
        </main>
        </body>
        </html>
        """

    static let style = """
        * { box-sizing: border-box; }
        body { margin: 0; font: 17px/1.4 system-ui, sans-serif; color: #222; background: #fafafa; }
        header { display: flex; align-items: center; justify-content: space-between; padding: 8px 16px; background: #1a5fb4; color: white; }
        header h1 { font-size: 20px; margin: 0; }
        nav button { background: none; border: 0; color: white; font-size: 16px; padding: 8px; }
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
          if (!response.ok) { const error = new Error(data.error || response.statusText); error.field = data.field; throw error; }
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
            item(book.name, `${book.wordCount} words · ${book.dueCount} due`, () => openWords(book))));
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

        async function loadCard() {
          const next = await api("GET", "study");
          card = next.card;
          $("show").hidden = !card;
          $("ratings").hidden = true;
          $("card-answer").hidden = true;
          $("card-word").textContent = card ? card.word : "";
          $("study-status").textContent = card ? `${next.dueCount} due · ${next.newCount} new`
            : next.reason === "noWords" ? "No words yet: add some on the Books page." : "Nothing to study now.";
          if (card) {
            $("card-answer").textContent = card.definition;
            $("ratings").replaceChildren(...next.intervals.map((choice) => {
              const button = document.createElement("button");
              button.textContent = choice.rating;
              button.dataset.rating = choice.rating;
              const interval = document.createElement("small");
              interval.textContent = shortInterval(Date.parse(choice.due) - Date.now());
              button.append(document.createElement("br"), interval);
              button.addEventListener("click", () => grade(choice.rating));
              return button;
            }));
          }
        }

        // "1m", "10m", "3h", "4d", "2mo", "1.5y": as the rating buttons of the window and Anki.
        function shortInterval(milliseconds) {
          const seconds = Math.max(0, Math.round(milliseconds / 1000));
          if (seconds < 3600) return `${Math.max(1, Math.round(seconds / 60))}m`;
          if (seconds < 86400) return `${Math.round(seconds / 3600)}h`;
          const days = Math.round(seconds / 86400);
          if (days < 31) return `${days}d`;
          if (days < 365) return `${Math.round(days / 30)}mo`;
          return `${Math.round(days / 36.5) / 10}y`;
        }

        async function grade(rating) {
          await api("POST", "study/grade", { wordId: card.id, rating });
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
          } catch (_) { /* offline or not paired: try again later */ }
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
        $("show").addEventListener("click", () => { $("card-answer").hidden = false; $("ratings").hidden = false; $("show").hidden = true; });
        for (const button of document.querySelectorAll("#tabs button")) button.addEventListener("click", () => show(button.dataset.page));
        api("GET", "books").then(() => show("books"), () => {});
        setInterval(poll, 1000);
        """
}
